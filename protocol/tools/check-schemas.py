#!/usr/bin/env python3
"""Checks the conformance transcripts against the JSON Schemas.

Usage: protocol/tools/check-schemas.py [TRANSCRIPT...]   (default: every
protocol/transcripts/*.transcript)

Every `< ` response is validated against the result schema of the method of
the request it answers (matched by id, the latest request with that id), or
against defs.schema.json#/$defs/error when it is an error. Every `> ` request
whose response is not an error has its params validated against the params
schema of its method (requests answered with an error are deliberately
invalid and are skipped). Exit status: 0 all valid, 1 violations, 2 setup
problem (the `jsonschema` package is missing, unreadable files).
"""
import glob, json, os, sys

try:
    import jsonschema
    from referencing import Registry, Resource
except ImportError:
    sys.stderr.write("check-schemas: the Python package `jsonschema` (>= 4.18) is required: "
                     "pip install jsonschema\n")
    sys.exit(2)

HERE = os.path.dirname(os.path.abspath(__file__))
PROTOCOL = os.path.dirname(HERE)
SCHEMAS = os.path.join(PROTOCOL, "schemas")

# method -> (schema file, params def or None, result def)
METHODS = {
    "initialize": ("initialize.schema.json", "params", "result"),
    "apply": ("apply.schema.json", "params", "result"),
    "edit": ("edit.schema.json", "params", "result"),
    "snapshot": ("snapshot.schema.json", "params", "result"),
    "sources": ("sources.schema.json", "params", "result"),
    "drop": ("drop.schema.json", "params", "result"),
    "shutdown": ("shutdown.schema.json", "params", "result"),
    "search": ("search.schema.json", "params", "result"),
    "highlights": ("search.schema.json", "highlightsParams", "highlightsResult"),
    "select": ("select.schema.json", "selectParams", "selectResult"),
    "setSelectionMode": ("select.schema.json", "setSelectionModeParams", "setSelectionModeResult"),
    "selection": ("select.schema.json", "selectionParams", "selectionResult"),
}
# Used when a method has no schema file of its own.
FALLBACK = {"edit": (None, "defs.schema.json", "diffResult")}


def load_registry():
    resources = []
    for path in sorted(glob.glob(os.path.join(SCHEMAS, "*.schema.json"))):
        with open(path, encoding="utf-8") as f:
            schema = json.load(f)
        jsonschema.Draft202012Validator.check_schema(schema)
        resources.append((schema["$id"], Resource.from_contents(schema)))
    return Registry().with_resources(resources)


class Checker:
    def __init__(self):
        self.registry = load_registry()
        self.known = {uri for uri in self.registry}
        self.validators = {}
        self.failures = 0
        self.checked = 0
        self.notes = set()

    def validator(self, file, name):
        key = (file, name)
        if key not in self.validators:
            ref = {"$ref": f"{file}#/$defs/{name}"}
            self.validators[key] = jsonschema.Draft202012Validator(ref, registry=self.registry)
        return self.validators[key]

    def defs_for(self, method):
        """(file, params def or None, result def) or None when there is no schema."""
        if method in METHODS and METHODS[method][0] in self.known:
            return METHODS[method]
        if method in FALLBACK:
            self.notes.add(f"no schema file for `{method}`: results checked against "
                           f"{FALLBACK[method][1]}#/$defs/{FALLBACK[method][2]}, params not checked")
            return (FALLBACK[method][1], FALLBACK[method][0], FALLBACK[method][2])
        return None

    def check(self, where, instance, file, name):
        self.checked += 1
        errors = sorted(self.validator(file, name).iter_errors(instance), key=lambda e: list(e.path))
        for e in errors:
            self.failures += 1
            loc = "/".join(str(p) for p in e.absolute_path) or "(root)"
            print(f"{where}: {file}#/$defs/{name} at {loc}: {e.message[:300]}")

    def transcript(self, path):
        name = os.path.relpath(path, PROTOCOL)
        requests = {}  # json id -> (line number, method, params present, params)
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
        for number, line in enumerate(lines, 1):
            where = f"{name}:{number}"
            if line.startswith("> "):
                try:
                    message = json.loads(line[2:])
                except ValueError:
                    continue  # deliberately unparseable; answered with -32700
                for m in message if isinstance(message, list) else [message]:
                    if isinstance(m, dict) and "id" in m:
                        requests[json.dumps(m["id"])] = (number, m.get("method"), "params" in m, m.get("params"))
            elif line.startswith("< "):
                message = json.loads(line[2:])
                for m in message if isinstance(message, list) else [message]:
                    self.response(where, name, m, requests)

    def response(self, where, name, m, requests):
        if "error" in m:
            self.check(where, m["error"], "defs.schema.json", "error")
            return
        request = requests.get(json.dumps(m.get("id")))
        if request is None:
            print(f"{where}: result for id {m.get('id')!r} answers no request")
            self.failures += 1
            return
        number, method, has_params, params = request
        defs = self.defs_for(method)
        if defs is None:
            print(f"{where}: no schema for method {method!r}")
            self.failures += 1
            return
        file, params_def, result_def = defs
        self.check(where, m["result"], file, result_def)
        if params_def and has_params:
            self.check(f"{name}:{number} (params of `{method}`)", params, file, params_def)


def main(argv):
    files = argv[1:] or sorted(glob.glob(os.path.join(PROTOCOL, "transcripts", "*.transcript")))
    if not files:
        sys.stderr.write("check-schemas: no transcripts found\n")
        return 2
    try:
        checker = Checker()
    except (OSError, ValueError, jsonschema.SchemaError) as e:
        sys.stderr.write(f"check-schemas: cannot load the schemas: {e}\n")
        return 2
    for path in files:
        checker.transcript(path)
    for note in sorted(checker.notes):
        print(f"note: {note}")
    print(f"check-schemas: {checker.checked} instances in {len(files)} transcripts, "
          f"{checker.failures} violations")
    return 1 if checker.failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
