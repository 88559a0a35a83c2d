#!/usr/bin/env python3
"""Re-records the expected responses of a conformance transcript.

Usage: protocol/tools/record-transcript.py path/to/diffable FILE.transcript...

Keeps the `#` comments and `> ` request lines, runs the requests through the
daemon (newline-delimited framing) and writes each response as a `< ` line
after the request that produced it. Review the diff before committing: the
transcript is the contract, the daemon is what is being checked.
"""
import json, subprocess, sys

def main():
    binary, files = sys.argv[1], sys.argv[2:]
    for path in files:
        lines = [l.rstrip("\n") for l in open(path, encoding="utf-8")]
        kept = [l for l in lines if not l.startswith("< ")]
        requests = [l[2:] for l in kept if l.startswith("> ")]
        out = subprocess.run([binary], input="\n".join(requests) + "\n", capture_output=True, text=True).stdout
        responses = [r for r in out.split("\n") if r]
        by_id = {}
        leftovers = []
        for r in responses:
            try:
                parsed = json.loads(r)
            except ValueError:
                leftovers.append(r); continue
            key = json.dumps(parsed.get("id")) if isinstance(parsed, dict) else None
            if isinstance(parsed, dict) and parsed.get("id") is not None and key not in by_id:
                by_id[key] = r
            else:
                leftovers.append(r)
        result = []
        for l in kept:
            result.append(l)
            if not l.startswith("> "):
                continue
            try:
                req = json.loads(l[2:])
            except ValueError:
                req = None
            key = json.dumps(req.get("id")) if isinstance(req, dict) and "id" in req else None
            if key is not None and key in by_id:
                result.append("< " + by_id.pop(key))
            elif leftovers and (req is None or isinstance(req, list) or (isinstance(req, dict) and (req.get("id") is None and "id" in req or req.get("jsonrpc") != "2.0" or "method" not in req))):
                result.append("< " + leftovers.pop(0))
        if by_id or leftovers:
            print(f"{path}: unmatched responses: {list(by_id.values()) + leftovers}", file=sys.stderr)
        open(path, "w", encoding="utf-8").write("\n".join(result) + "\n")

main()
