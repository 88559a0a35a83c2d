#!/usr/bin/env python3
"""Re-records the expected responses of a conformance transcript.

Usage: protocol/tools/record-transcript.py path/to/diffable FILE.transcript...

Keeps the `#` comments and `> ` request lines, runs the requests through the
daemon (newline-delimited framing) and writes each response as a `< ` line
after the request that produced it. Review the diff before committing: the
transcript is the contract, the daemon is what is being checked.
"""
import subprocess, sys

def outputs(binary, requests):
    out = subprocess.run([binary], input="".join(r + "\n" for r in requests),
                         capture_output=True, text=True).stdout
    return [r for r in out.split("\n") if r]

def main():
    binary, files = sys.argv[1], sys.argv[2:]
    for path in files:
        lines = [l.rstrip("\n") for l in open(path, encoding="utf-8")]
        kept = [l for l in lines if not l.startswith("< ")]
        result, sent, seen = [], [], 0
        # Replays every prefix of the session, so each response is written
        # after exactly the request that produced it (the daemon is deterministic).
        for l in kept:
            result.append(l)
            if l.startswith("> "):
                sent.append(l[2:])
                responses = outputs(binary, sent)
                result.extend("< " + r for r in responses[seen:])
                seen = len(responses)
        open(path, "w", encoding="utf-8").write("\n".join(result) + "\n")

main()
