"""JSON Schema -> TypeScript for the subset protocol/schemas uses; generate-contract writes
protocol/clients/js/types.d.ts with it.

What becomes what:
- `type` (a list is a union): integer/number -> number, string, boolean, null; `array` with
  `items` -> T[], with `prefixItems` -> a tuple (labelled from a "[a, b]" description), with
  `maxItems: 0` -> []; `object` with `properties`/`required` -> an object type (`?` for the members
  not required), with `additionalProperties: <schema>` -> Record<string, T>, with
  `maxProperties: 0` -> Record<string, never>;
- `enum` and `const` -> literal unions; `oneOf`/`anyOf` of typed branches -> a union;
- `$ref` (`#/...` in the same file or `defs.schema.json#/$defs/...`) -> the name of the declaration
  it points at (see below), or the target inlined when it is a plain scalar (`id` is `string`);
- `$ref` beside `properties` (a result built on `diffResult`) -> an interface that `extends` it;
- `allOf` of `if: {properties: {K: {const|enum}}}` / `then: {...}` entries (edit ops, steps,
  window steps, patch ops, progress values) -> a union discriminated by K, each branch with its
  `then` members (`K: true` there takes the `if`'s values, other `true` members the base's);
- `true`, `{}`, and a schema that only says what a value is not -> `Json`;
- `description` -> a /** */ comment on the declaration or member.

What TypeScript cannot say is left to the comments: `minimum`, `pattern`, `uniqueItems`,
`dependentRequired`, `not`, and constraints between members (`oneOf` of `required` lists,
`if`/`then` on other members). Open objects (no `additionalProperties: false`) get no index
signature: a program writes the documented members.

Named declarations: `<Method>Params` and `<Method>Result` for every method (the schema file's
stem in PascalCase), every object-like def of defs.schema.json (its name in PascalCase unless
`NAMES` renames it), and the inline nodes `NAMES` lists. Python 3 standard library only.
"""
from __future__ import annotations

import json
import re
from typing import Any, Dict, List, Optional, Tuple

# "file#pointer" -> TypeScript name: renames (the names the JS client exported before these types
# were generated) and inline nodes worth a name of their own.
NAMES: Dict[str, str] = {
    "defs.schema.json#/$defs/itemIn": "ItemInput",
    "defs.schema.json#/$defs/sectionIn": "SectionInput",
    "defs.schema.json#/$defs/change": "SelectionChange",
    "defs.schema.json#/$defs/row": "SelectedRow",
    "defs.schema.json#/$defs/policyIn": "PolicyInput",
    "defs.schema.json#/$defs/fieldHighlights/items": "FieldHighlight",
    "defs.schema.json#/$defs/flatRow": "WindowRow",
    "defs.schema.json#/$defs/window": "WindowUpdate",
    "defs.schema.json#/$defs/jsonPatch": "JsonPatch",
    "defs.schema.json#/$defs/jsonPatchOp": "PatchOp",
    "defs.schema.json#/$defs/viewportIn": "ViewportInput",
    "defs.schema.json#/$defs/viewportIn/oneOf/1": "Viewport",
    "edit.schema.json#/$defs/op": "EditParamsOp",
    "snapshot.schema.json#/$defs/section": "SnapshotSection",
    "search.schema.json#/$defs/result/properties/search": "SearchInfo",
    "sources.schema.json#/$defs/result/properties/sources/items": "SourceInfo",
    "initialize.schema.json#/$defs/params/properties/initializationOptions/oneOf/1": "InitializationOptions",
    "initialize.schema.json#/$defs/result/properties/serverInfo": "ServerInfo",
    "initialize.schema.json#/$defs/result/properties/capabilities": "Capabilities",
    "progress.schema.json#/$defs/params/properties/value": "ProgressValue",
}

JSON_TYPE = "export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };"
SCALARS = {"integer": "number", "number": "number", "string": "string", "boolean": "boolean", "null": "null"}


def pascal(name: str) -> str:
    return name[:1].upper() + name[1:]


def literal(value: Any) -> str:
    return json.dumps(value).replace("'", "\\'").replace('"', "'") if isinstance(value, str) else json.dumps(value)


def comment(text: Optional[str], indent: str) -> List[str]:
    if not text:
        return []
    return [f"{indent}/** {text.strip().replace('*/', '* /')} */"]


def union(parts: List[str]) -> str:
    unique = list(dict.fromkeys(parts))
    return " | ".join(unique) if unique else "never"


class Converter:
    """Declarations for the nodes it is asked for, and for every named node they reach."""

    def __init__(self, schemas: Dict[str, Any], names: Dict[str, str]):
        self.schemas = schemas
        self.names = dict(names)  # location -> name, grows as object-like defs are reached
        self.queue: List[str] = []
        self.done: Dict[str, List[str]] = {}  # name -> its declaration's lines
        self.owners: Dict[str, str] = {}  # name -> the one location it names

    def node(self, location: str) -> Any:
        file, _, pointer = location.partition("#")
        node = self.schemas[file]
        for token in filter(None, pointer.split("/")):
            token = token.replace("~1", "/").replace("~0", "~")
            node = node[int(token)] if isinstance(node, list) else node[token]
        return node

    def target(self, ref: str, file: str) -> str:
        ref_file, _, pointer = ref.partition("#")
        return f"{ref_file or file}#{pointer}"

    def object_like(self, node: Any, file: str, depth: int = 0) -> bool:
        """Whether a node is an object, a tuple, or a union holding one: what gets a name of its own
        (`depth` bounds a cycle of `$ref`s)."""
        if not isinstance(node, dict) or depth > 8:
            return False
        if "$ref" in node and len(node) <= 2:
            return self.object_like(self.node(self.target(node["$ref"], file)), file, depth + 1)
        if "properties" in node or "prefixItems" in node or node.get("type") == "object":
            return True
        return any(self.object_like(b, file, depth + 1) for b in node.get("oneOf", []) + node.get("anyOf", []))

    def name_of(self, location: str) -> Optional[str]:
        if location in self.names:
            name = self.names[location]
        elif location.startswith("defs.schema.json#/$defs/") and location.count("/") == 2 \
                and self.object_like(self.node(location), "defs.schema.json"):
            name = pascal(location.rsplit("/", 1)[1])
            self.names[location] = name
        else:
            return None
        owner = self.owners.setdefault(name, location)
        if owner != location:
            raise ValueError(f"contract_ts: {owner} and {location} would both be named {name}: rename one in NAMES")
        if name not in self.done and location not in self.queue:
            self.queue.append(location)
        return name

    def declare(self, location: str, name: str) -> None:
        """Adds `name`'s declaration, then those of the names it reached."""
        self.names[location] = name
        self.name_of(location)
        while self.queue:
            where = self.queue.pop(0)
            declared = self.names[where]
            if declared not in self.done:
                self.done[declared] = []  # reserves the name while its own members are converted
                self.done[declared] = self.declaration(where, declared)

    def declaration(self, location: str, name: str) -> List[str]:
        node = self.node(location)
        file = location.partition("#")[0]
        lines = comment(node.get("description") if isinstance(node, dict) else None, "")
        base = None
        if isinstance(node, dict) and "$ref" in node and "properties" in node:
            base = self.type_of({"$ref": node["$ref"]}, file, f"{location}/$ref")
        if isinstance(node, dict) and ("properties" in node or base) and not self.discriminated(node):
            extends = f" extends {base}" if base else ""
            body = self.members(node, file, location, "  ")
            return lines + [f"export interface {name}{extends} {{", *body, "}"]
        text = self.type_of(node, file, location, "", top=True)
        return lines + [f"export type {name} ={'' if text.startswith(chr(10)) else ' '}{text};"]

    def members(self, node: Dict[str, Any], file: str, location: str, indent: str,
                extra: Optional[Dict[str, str]] = None, required: Optional[List[str]] = None) -> List[str]:
        required = node.get("required", []) if required is None else required
        out = []
        for member, schema in node.get("properties", {}).items():
            text = (extra or {}).get(member) or self.type_of(schema, file, f"{location}/properties/{member}", indent)
            description = schema.get("description") if isinstance(schema, dict) else None
            out += comment(description, indent)
            optional = "" if member in required else "?"
            out.append(f"{indent}{member}{optional}: {text};")
        return out

    def discriminated(self, node: Dict[str, Any]) -> Optional[str]:
        """K when every `allOf` entry is `if: {properties: {K: const|enum}}` + `then`."""
        entries = node.get("allOf", [])
        keys = set()
        for entry in entries:
            props = entry.get("if", {}).get("properties", {}) if isinstance(entry, dict) else {}
            if "then" not in entry or len(props) != 1:
                return None
            (key, value), = props.items()
            if not ("const" in value or "enum" in value):
                return None
            keys.add(key)
        return keys.pop() if len(keys) == 1 and entries else None

    def tagged_union(self, node: Dict[str, Any], key: str, file: str, location: str, indent: str) -> str:
        base = node.get("properties", {})
        lines = []
        for index, entry in enumerate(node["allOf"]):
            condition = entry["if"]["properties"][key]
            tag = union([literal(v) for v in condition["enum"]]) if "enum" in condition else literal(condition["const"])
            then = entry["then"]
            where = f"{location}/allOf/{index}/then"
            shapes = [(s, f"{where}/oneOf/{i}") for i, s in enumerate(then["oneOf"])] \
                if "oneOf" in then and "properties" not in then else [(then, where)]
            for shape, at in shapes:
                props = {key: True, **shape.get("properties", {})}
                merged = {m: (base.get(m, {}) if s is True and m != key else s) for m, s in props.items()}
                required = [key] + [m for m in list(node.get("required", [])) + shape.get("required", [])
                                    if m != key and m in merged]
                body = self.members({"properties": merged}, file, at, indent + "    ", {key: tag}, required)
                lines += comment(shape.get("description"), indent + "  ")
                lines.append(f"{indent}  | {self.braces(body, indent + '  ')}")
        return "\n" + "\n".join(lines) if lines else "never"

    @staticmethod
    def braces(body: List[str], indent: str) -> str:
        """An object type: on one line when it is short and has no comments."""
        flat = "{ " + " ".join(line.strip() for line in body).rstrip(";") + " }"
        if len(flat) + len(indent) <= 110 and not any(line.strip().startswith("/**") for line in body):
            return flat if body else "{}"
        return "{\n" + "\n".join(body) + f"\n{indent}}}"

    def type_of(self, schema: Any, file: str, location: str, indent: str = "", top: bool = False) -> str:
        if schema is True or schema == {} or not isinstance(schema, dict):
            return "Json"
        if not top:
            name = self.name_of(location)
            if name:
                return name
        if "$ref" in schema:
            where = self.target(schema["$ref"], file)
            name = self.name_of(where)
            if name:
                return name
            return self.type_of(self.node(where), where.partition("#")[0], where, indent, top=True)
        if "const" in schema:
            return literal(schema["const"])
        if "enum" in schema:
            return union([literal(v) for v in schema["enum"]])
        key = self.discriminated(schema)
        if key:
            return self.tagged_union(schema, key, file, location, indent)
        for word in ("oneOf", "anyOf"):
            branches = schema.get(word, [])
            if branches and all(self.typed(b) for b in branches):
                return union([self.type_of(b, file, f"{location}/{word}/{i}", indent) for i, b in enumerate(branches)])
        types = schema.get("type")
        if isinstance(types, list):
            return union([self.type_of({**schema, "type": t}, file, location, indent, top=True) for t in types])
        if types in SCALARS:
            return SCALARS[types]
        if types == "array" or "items" in schema or "prefixItems" in schema:
            return self.array(schema, file, location, indent)
        if types == "object" or "properties" in schema:
            return self.object(schema, file, location, indent)
        return "Json"

    def typed(self, schema: Any) -> bool:
        """Whether a branch says what a value is (rather than only which members it has)."""
        return isinstance(schema, dict) and any(k in schema for k in ("type", "$ref", "const", "enum", "properties"))

    def array(self, schema: Dict[str, Any], file: str, location: str, indent: str) -> str:
        if schema.get("maxItems") == 0:
            return "[]"
        if "prefixItems" in schema:
            labels = re.findall(r"\w+", schema.get("description", ""))
            parts = [self.type_of(s, file, f"{location}/prefixItems/{i}", indent) for i, s in enumerate(schema["prefixItems"])]
            if len(labels) == len(parts):
                parts = [f"{label}: {part}" for label, part in zip(labels, parts)]
            return "[" + ", ".join(parts) + "]"
        item = self.type_of(schema.get("items", True), file, f"{location}/items", indent)
        return f"({item})[]" if " | " in item or item.startswith("\n") else f"{item}[]"

    def object(self, schema: Dict[str, Any], file: str, location: str, indent: str) -> str:
        if schema.get("maxProperties") == 0:
            return "Record<string, never>"
        extra = schema.get("additionalProperties")
        if "properties" not in schema and isinstance(extra, dict):
            return f"Record<string, {self.type_of(extra, file, f'{location}/additionalProperties', indent)}>"
        if "properties" not in schema:
            return "{ [key: string]: Json }"
        return self.braces(self.members(schema, file, location, indent + "  "), indent)


def methods_of(schemas: Dict[str, Any]) -> List[Tuple[str, str]]:
    """(file, stem) of every method's schema, in file order."""
    found = []
    for file, schema in schemas.items():
        defs = schema.get("$defs", {})
        if file != "message.schema.json" and ("request" in defs or "notification" in defs):
            found.append((file, file.split(".")[0]))
    return found


def types_text(schemas: Dict[str, Any], header: str, enums: List[Tuple[str, str]]) -> str:
    """types.d.ts: Json, then every method's Params and Result, then the shared shapes they use.
    `enums` are (name, location) of the value sets contract.d.ts declares, imported from there."""
    converter = Converter(schemas, {**NAMES, **{location: name for name, location in enums}})
    for name, _ in enums:
        converter.done[name] = []  # declared in contract.d.ts
    methods = []
    for file, stem in methods_of(schemas):
        for part in ("params", "result"):
            if part in schemas[file]["$defs"]:
                name = pascal(stem) + pascal(part)
                methods.append(name)
                converter.declare(f"{file}#/$defs/{part}", name)
    out = [f"// The protocol's params and result shapes as types: {header}.",
           "// One `<Method>Params` and `<Method>Result` per method of protocol/schemas, and the shared",
           "// shapes they use; protocol/tools/contract_ts.py says what each schema keyword becomes.", "",
           f"import type {{ {', '.join(sorted(name for name, _ in enums))} }} from './contract.js';", "",
           "/** Any JSON value. */", JSON_TYPE]
    for name in methods + sorted(n for n in converter.done if n not in methods):
        if converter.done[name]:
            out += [""] + converter.done[name]
    out += [""] + contract_methods(schemas)
    return "\n".join(out) + "\n"


def contract_methods(schemas: Dict[str, Any]) -> List[str]:
    """`ContractMethods<Options>`: the function `Client` makes for a request method that has no
    function of its own (client.js): the members its params require, positional in schema order,
    then an options object with the others."""
    out = ["/**",
           " * A function per request method (but `initialize` and `shutdown`), as `Client` makes one for a",
           " * method that has none of its own: the params the schema requires, positional in its order,",
           " * then `options` with the other members and the request options.",
           " */",
           "export interface ContractMethods<Options> {"]
    for file, stem in methods_of(schemas):
        defs = schemas[file]["$defs"]
        if "request" not in defs or "result" not in defs:
            continue
        method = defs["request"]["properties"]["method"]["const"]
        if method in ("initialize", "shutdown"):
            continue
        params = defs.get("params", {})
        required = [key for key in params.get("required", []) if key != "workDoneToken"]
        if "properties" in params:
            left_out = " | ".join(literal(key) for key in required + ["workDoneToken"])
            positional = [f"{key}: {pascal(stem)}Params[{literal(key)}]" for key in required]
            options = f"options?: Omit<{pascal(stem)}Params, {left_out}> & Options"
        else:
            positional, options = [], "options?: Options"
        out.append(f"  {method}({', '.join(positional + [options])}): Promise<{pascal(stem)}Result>;")
    return out + ["}"]
