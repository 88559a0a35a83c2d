#!/usr/bin/env python3
"""Checks the conformance transcripts against the JSON Schemas, message by message.

Usage:
  protocol/tools/check-schemas.py [TRANSCRIPT...]    default: every protocol/transcripts/*.transcript
  protocol/tools/check-schemas.py --self-test [--daemon BINARY] [--seed N] [--steps N]
                                                     runs protocol/tools/test_schemas.py (see there)

Every line of every transcript is checked:
- every `> ` message (request, notification or batch) against message.schema.json;
- every `< ` message against message.schema.json, and every response against
  `<method>.schema.json#/$defs/response` of the request it answers (matched by
  id within the transcript: the oldest unanswered request with that id, with
  its JSON type; an `id: null` error answers the previous `> ` line when that
  line holds no request with id null).
The schemas and the daemon must agree, so a transcript also fails when:
- a request the schema rejects was answered with a result, or with an error
  the daemon only sends after decoding the params (1001-1005): the daemon
  accepted what the schema calls invalid;
- an `id: null` error answers a line the schema fully accepts, or a -32601
  answers a request whose method the schema knows;
- a notification fails the schema, unless the comment line right above it
  says it is `invalid` or `malformed` (then it must fail the schema);
- a request is never answered, or a response answers no request.
Requests answered with -32600/-32602 may be schema-valid (second
`initialize`, a duplicate id, a path with no row) or not (a deliberately bad
request); -32002 and -32800 are sent before the params are looked at.

Exit status: 0 all valid, 1 violations, 2 setup problem (the Python package
`jsonschema` >= 4.18 with `referencing` is missing, unreadable files).
"""
import glob
import json
import os
import sys

# jsonschema descends a value recursively, about a dozen frames per level:
# the transcripts hold trees of items a few hundred levels deep.
sys.setrecursionlimit(20000)

HERE = os.path.dirname(os.path.abspath(__file__))
PROTOCOL = os.path.dirname(HERE)
SCHEMAS = os.path.join(PROTOCOL, "schemas")

try:
    import jsonschema
    from referencing import Registry, Resource
    if not hasattr(jsonschema, "Draft202012Validator"):
        raise ImportError("jsonschema too old")
except ImportError:
    sys.stderr.write(
        "check-schemas: FAILED: the Python package `jsonschema` (>= 4.18, with `referencing`) is required "
        f"and was not found by {sys.executable}.\n"
        "  Run protocol/tools/install-test-tools and use ${DIFFABLE_TEST_VENV:-.build/test-venv}/bin/python, "
        "or: pip install 'jsonschema>=4.18'\n")
    sys.exit(2)

# Error codes the daemon only sends once the params are decoded (edit.md,
# "Check order"): the request they answer must be schema-valid.
AFTER_DECODING = {1001, 1002, 1003, 1004, 1005}


def notification_file(method, dispatch=None):
    """The schema file of a notification: the one message.schema.json dispatches it to (`dispatch`:
    method -> `file#/$defs/notification`), else `$/cancelRequest` -> cancelRequest.schema.json,
    `exit` -> exit.schema.json."""
    if dispatch and method in dispatch:
        return dispatch[method].split("#")[0]
    return (method[2:] if method.startswith("$/") else method) + ".schema.json"


class Schemas:
    """The schema folder as a `referencing` registry, with cached validators."""

    def __init__(self, folder=SCHEMAS):
        resources = []
        for path in sorted(glob.glob(os.path.join(folder, "*.schema.json"))):
            with open(path, encoding="utf-8") as f:
                schema = json.load(f)
            jsonschema.Draft202012Validator.check_schema(schema)
            if schema.get("$id") != os.path.basename(path):
                raise ValueError(f"{path}: $id must be the file name, is {schema.get('$id')!r}")
            resources.append((schema["$id"], Resource.from_contents(schema)))
        self.registry = Registry().with_resources(resources)
        message = self.registry.contents("message.schema.json")
        self.methods = list(message["$defs"]["methods"]["enum"])
        self.notifications = list(message["$defs"]["notifications"]["enum"])
        # method -> the $ref message.schema.json dispatches it to (window/workDoneProgress/cancel ->
        # workDoneProgressCancel.schema.json#/$defs/notification)
        self.dispatch = {}
        for rule in message["$defs"]["call"]["allOf"]:
            const = rule.get("if", {}).get("properties", {}).get("method", {}).get("const")
            if const is not None:
                self.dispatch[const] = rule["then"]["$ref"]
        missing = [m for m in self.methods + self.notifications if m not in self.dispatch]
        if missing:
            raise ValueError(f"message.schema.json does not dispatch {missing}")
        self._validators = {}

    def validator(self, uri):
        if uri not in self._validators:
            self._validators[uri] = jsonschema.Draft202012Validator({"$ref": uri}, registry=self.registry)
        return self._validators[uri]

    def errors(self, uri, instance):
        """Human-readable violations of `instance` against the schema at `uri` ([] = valid)."""
        found = []
        for e in sorted(self.validator(uri).iter_errors(instance), key=lambda e: list(e.absolute_path)):
            loc = "/".join(str(p) for p in e.absolute_path) or "(root)"
            best = jsonschema.exceptions.best_match([e])
            found.append(f"at {loc}: {best.message[:300]}")
        return found

    def message_errors(self, message):
        return self.errors("message.schema.json", message)

    def request_uri(self, method):
        return f"{method}.schema.json#/$defs/request"

    def response_uri(self, method):
        return f"{method}.schema.json#/$defs/response"

    def notification_uri(self, method):
        return f"{notification_file(method, self.dispatch)}#/$defs/notification"

    def check_call(self, message):
        """Violations of a request/notification: message.schema.json plus its own file's schema."""
        errs = self.errors("message.schema.json#/$defs/message", message)
        method = message.get("method") if isinstance(message, dict) else None
        if method in self.methods:
            errs += self.errors(self.request_uri(method), message)
        elif method in self.notifications:
            errs += self.errors(self.notification_uri(method), message)
        return sorted(set(errs))

    def check_response(self, response, method):
        errs = self.errors("message.schema.json#/$defs/message", response)
        if method in self.methods:
            errs += [e for e in self.errors(self.response_uri(method), response) if e not in errs]
        return sorted(set(errs))


class Sent:
    def __init__(self, line, message, errors):
        self.line, self.message, self.errors = line, message, errors
        self.method = message.get("method") if isinstance(message, dict) else None


class Checker:
    def __init__(self, schemas=None):
        self.schemas = schemas or Schemas()
        self.failures = 0
        self.messages = 0

    def fail(self, where, text):
        self.failures += 1
        print(f"{where}: {text}")

    def transcript(self, path):
        """Checks one transcript; returns its number of violations."""
        before = self.failures
        name = os.path.relpath(path, PROTOCOL) if os.path.isabs(path) else path
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
        pending = {}      # json id -> [Sent] not answered yet, oldest first
        last_line = None  # (line number, parsed or None, [Sent], fully valid?)
        comment = ""
        for number, line in enumerate(lines, 1):
            where = f"{name}:{number}"
            if line.startswith("#"):
                comment = line
                continue
            if line.startswith("> "):
                self.sent(where, number, line[2:], comment, pending)
                last_line = self.last
            elif line.startswith("< "):
                self.received(where, line[2:], pending, last_line)
            elif line.strip():
                self.fail(where, "not a `> `, `< ` or `#` line")
            comment = ""
        for waiting in pending.values():
            for s in waiting:
                self.fail(f"{name}:{s.line}", f"request id {json.dumps(s.message.get('id'))} ({s.method}) is never answered")
        return self.failures - before

    def sent(self, where, number, text, comment, pending):
        self.messages += 1
        try:
            message = json.loads(text)
        except ValueError:
            self.last = (number, None, [], False)  # deliberately unparseable: answered with -32700
            return
        whole = self.schemas.message_errors(message)
        elements = message if isinstance(message, list) else [message]
        calls = []
        for m in elements:
            errs = self.schemas.check_call(m) if isinstance(m, dict) and "method" in m else (whole or ["not a request"])
            s = Sent(number, m, errs)
            calls.append(s)
            if isinstance(m, dict) and "id" in m:
                pending.setdefault(json.dumps(m["id"]), []).append(s)
            elif isinstance(m, dict) and "method" in m:  # a notification: never answered
                expected_invalid = any(w in comment.lower() for w in ("invalid", "malformed"))
                if errs and not expected_invalid:
                    for e in errs:
                        self.fail(where, f"notification `{m.get('method')}` fails the schema {e}")
                elif expected_invalid and not errs:
                    self.fail(where, f"notification `{m.get('method')}` is marked invalid by the comment above it "
                                     "but the schema accepts it")
        self.last = (number, message, calls, not whole)

    def received(self, where, text, pending, last_line):
        self.messages += 1
        try:
            message = json.loads(text)
        except ValueError as e:
            self.fail(where, f"the daemon's message is not JSON: {e}")
            return
        elements = message if isinstance(message, list) else [message]
        if isinstance(message, list):
            for e in self.schemas.message_errors(message):
                self.fail(where, f"message.schema.json {e}")
        for r in elements:
            if isinstance(r, dict) and "method" not in r:
                self.response(where, r, pending, last_line)
            elif isinstance(message, dict):  # a message from the daemon ($/progress)
                for e in self.schemas.check_call(r):
                    self.fail(where, f"daemon's notification {e}")

    def response(self, where, r, pending, last_line):
        key = json.dumps(r.get("id"))
        waiting = pending.get(key)
        if r.get("id") is None and (not waiting or last_line is None or waiting[0].line != last_line[0]):
            self.broken(where, r, last_line)
            return
        if not waiting:
            self.fail(where, f"response id {key} answers no request")
            return
        request = waiting.pop(0)
        if not waiting:
            del pending[key]
        method = request.method
        known = method in self.schemas.methods
        for e in self.schemas.check_response(r, method if known else None):
            self.fail(where, f"response to `{method}` (line {request.line}) {e}")
        code = r.get("error", {}).get("code") if isinstance(r.get("error"), dict) else None
        if not known:
            if "error" not in r:
                self.fail(where, f"a result for a request whose method {method!r} has no schema")
            elif code not in (-32601, -32600, -32002, 1010):
                self.fail(where, f"error {code} for a request whose method {method!r} has no schema "
                                 "(expected -32601, or -32600/-32002/1010)")
            return
        if code == -32601:
            self.fail(where, f"-32601 (method not found) for `{method}`, a method the schemas define")
        if request.errors and ("result" in r or code in AFTER_DECODING):
            answer = "a result" if "result" in r else f"error {code}"
            for e in request.errors:
                self.fail(f"{where}", f"the daemon answered {answer} to the request on line {request.line}, "
                                      f"which the schema rejects {e}")

    def broken(self, where, r, last_line):
        """An error with id null: the previous `> ` line was unparseable or not a valid message."""
        if "error" not in r:
            self.fail(where, "a result with id null answers no request")
            return
        code = r["error"].get("code") if isinstance(r["error"], dict) else None
        if last_line is None:
            self.fail(where, "an id-null error before any message was sent")
            return
        number, message, calls, valid = last_line
        if message is None:
            if code != -32700:
                self.fail(where, f"line {number} is not JSON: expected -32700, got {code}")
            return
        if valid and all(not c.errors for c in calls):
            self.fail(where, f"the daemon answered error {code} (id null) to line {number}, which the schema accepts")


def main(argv):
    if "--self-test" in argv[1:]:
        sys.path.insert(0, HERE)
        import test_schemas
        return test_schemas.main([a for a in argv[1:] if a != "--self-test"])
    files = argv[1:] or sorted(glob.glob(os.path.join(PROTOCOL, "transcripts", "*.transcript")))
    if not files:
        sys.stderr.write("check-schemas: no transcripts found\n")
        return 2
    try:
        checker = Checker()
    except (OSError, ValueError, jsonschema.SchemaError) as e:
        sys.stderr.write(f"check-schemas: cannot load the schemas: {e}\n")
        return 2
    passed = failed = 0
    for path in files:
        try:
            bad = checker.transcript(path)
        except OSError as e:
            sys.stderr.write(f"check-schemas: cannot read {path}: {e}\n")
            return 2
        passed, failed = (passed + 1, failed) if bad == 0 else (passed, failed + 1)
    print(f"check-schemas: {checker.messages} messages in {len(files)} transcripts, {checker.failures} violations")
    print(f"RESULT transcripts passed={passed} failed={failed}")
    return 1 if checker.failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
