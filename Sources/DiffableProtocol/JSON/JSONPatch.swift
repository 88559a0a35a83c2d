/// RFC 6902 JSON Patch: decoding a patch, and applying it to a `JSON` value.
/// The daemon's own patches (old content → new) are made by
/// `JSONPatch.diff` (JSONPatch+Diff.swift).
///
/// Objects are ordered and may repeat a name (see `JSONObject`), so the
/// RFC's object rules are made exact here:
/// - a token names the *last* member with exactly that name (as lookup does);
/// - `add` of an existing name replaces that member's value in place; of a
///   new name, appends the member at the end;
/// - `replace` keeps the member's place; `remove` removes that one member.
///
/// `test` compares as RFC 6902 says: numbers by value (`1`, `1.0` and
/// `1e0` are equal; exactly, not through `Double`), objects regardless of
/// member order, arrays element by element, strings by their code points.
///
/// - Complexity: applying op k is O(depth of its paths × members of the
///   containers on them + size of its value); nothing recurses, so a
///   value of any depth is safe.
package enum JSONPatch {
    package enum Operation: Equatable, Sendable {
        case add(JSONPointer, JSON)
        case remove(JSONPointer)
        case replace(JSONPointer, JSON)
        case move(from: JSONPointer, to: JSONPointer)
        case copy(from: JSONPointer, to: JSONPointer)
        case test(JSONPointer, JSON)

        package var name: String {
            switch self {
            case .add: "add"
            case .remove: "remove"
            case .replace: "replace"
            case .move: "move"
            case .copy: "copy"
            case .test: "test"
            }
        }
    }

    /// Why a patch did not apply: the index of the failing op in the patch
    /// and what went wrong (the document is left as it was).
    package struct Failure: Error, Equatable, Sendable {
        package var index: Int
        package var message: String
    }

    /// A patch that is not well-formed: where (`path` within `at`) and why.
    package struct ShapeError: Error, Equatable, Sendable {
        package var path: String
        package var message: String
    }

    package static let names = ["add", "remove", "replace", "move", "copy", "test"]

    // MARK: decoding

    /// The ops of a patch given as JSON (an array of op objects), checked
    /// for shape only: whether they apply is known when they are applied.
    /// `path` (where the patch is, for errors) is built only on a failure.
    /// - Complexity: O(size of the patch).
    package static func decode(_ value: JSON, path: @autoclosure () -> String) throws(ShapeError) -> [Operation] {
        guard case .array(let items) = value else { throw ShapeError(path: path(), message: "must be an array of JSON Patch ops") }
        var result: [Operation] = []
        result.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            func here() -> String { "\(path())[\(index)]" }
            guard case .object(let object) = item else { throw ShapeError(path: here(), message: "must be an object {\"op\", \"path\", …}") }
            guard case .string(let name)? = object["op"], names.contains(name) else {
                throw ShapeError(path: "\(here()).op", message: "must be one of \(names.map { "\"\($0)\"" }.joined(separator: ", "))")
            }
            let needsValue = name == "add" || name == "replace" || name == "test", needsFrom = name == "move" || name == "copy"
            for member in object.members {
                switch member.key {
                case "op", "path": continue
                case "value" where needsValue: continue
                case "from" where needsFrom: continue
                default:
                    let accepted = ["op", "path"] + (needsValue ? ["value"] : []) + (needsFrom ? ["from"] : [])
                    throw ShapeError(path: "\(here()).\(member.key)", message: "is not a member of a \"\(name)\" op (it takes \(accepted.joined(separator: ", ")))")
                }
            }
            func pointer(_ key: String) throws(ShapeError) -> JSONPointer {
                guard let member = object[key] else { throw ShapeError(path: "\(here()).\(key)", message: "is missing (a JSON Pointer)") }
                guard case .string(let text) = member, let pointer = JSONPointer(text) else {
                    throw ShapeError(path: "\(here()).\(key)", message: "must be a JSON Pointer string: \"\" or \"/\" tokens, with ~ only as ~0 or ~1")
                }
                return pointer
            }
            let target = try pointer("path")
            let value = object["value"]
            if needsValue, value == nil { throw ShapeError(path: "\(here()).value", message: "is missing") }
            switch name {
            case "add": result.append(.add(target, value ?? .null))
            case "remove": result.append(.remove(target))
            case "replace": result.append(.replace(target, value ?? .null))
            case "move": result.append(.move(from: try pointer("from"), to: target))
            case "copy": result.append(.copy(from: try pointer("from"), to: target))
            default: result.append(.test(target, value ?? .null))
            }
        }
        return result
    }

    // MARK: applying

    /// `document` with every op applied in order, or the first failure.
    package static func apply(_ ops: [Operation], to document: JSON) throws(Failure) -> JSON {
        var document = document
        for (index, op) in ops.enumerated() {
            do throws(JSONPatchProblem) {
                try apply(op, to: &document)
            } catch {
                throw Failure(index: index, message: "patch op \(index) (\(op.name)): \(error.text)")
            }
        }
        return document
    }

    private static func apply(_ op: Operation, to document: inout JSON) throws(JSONPatchProblem) {
        switch op {
        case .add(let path, let value):
            try add(value, at: path, in: &document)
        case .remove(let path):
            _ = try remove(path, in: &document)
        case .replace(let path, let value):
            guard let last = path.tokens.last else {
                document = value
                return
            }
            try withContainer(of: path, in: &document) { (container: inout JSON) throws(JSONPatchProblem) in
                switch container {
                case .object(var object):
                    guard let i = object.lastIndex(ofBytes: last) else { throw JSONPatchProblem("\"\(path)\": no member \"\(last)\" to replace") }
                    container = .null
                    object.setValue(value, at: i)
                    container = .object(object)
                case .array(var array):
                    let i = try index(last, in: array.count, of: path, allowingEnd: false)
                    container = .null
                    array[i] = value
                    container = .array(array)
                default:
                    throw JSONPatchProblem("\"\(path)\": the parent is neither an object nor an array")
                }
            }
        case .move(let from, let to):
            guard !(from.isPrefix(of: to) && from.tokens.count < to.tokens.count) else {
                throw JSONPatchProblem("cannot move \"\(from)\" into its own child \"\(to)\"")
            }
            _ = try value(at: from, in: document)
            if from == to { return }
            let moved = try remove(from, in: &document)
            try add(moved, at: to, in: &document)
        case .copy(let from, let to):
            try add(try value(at: from, in: document), at: to, in: &document)
        case .test(let path, let expected):
            guard equal(try value(at: path, in: document), expected) else { throw JSONPatchProblem("\"\(path)\": test failed, the value differs") }
        }
    }

    /// The value a pointer names.
    package static func value(at pointer: JSONPointer, in document: JSON) throws(JSONPatchProblem) -> JSON {
        var current = document
        for (depth, token) in pointer.tokens.enumerated() {
            switch current {
            case .object(let object):
                guard let i = object.lastIndex(ofBytes: token) else { throw JSONPatchProblem("\"\(prefix(pointer, depth + 1))\": no such member") }
                current = object.members[i].value
            case .array(let array):
                current = array[try index(token, in: array.count, of: prefix(pointer, depth + 1), allowingEnd: false)]
            default:
                throw JSONPatchProblem("\"\(prefix(pointer, depth + 1))\": \"\(prefix(pointer, depth))\" is neither an object nor an array")
            }
        }
        return current
    }

    private static func add(_ value: JSON, at path: JSONPointer, in document: inout JSON) throws(JSONPatchProblem) {
        guard let last = path.tokens.last else {
            document = value
            return
        }
        try withContainer(of: path, in: &document) { (container: inout JSON) throws(JSONPatchProblem) in
            switch container {
            case .object(var object):
                container = .null
                if let i = object.lastIndex(ofBytes: last) { object.setValue(value, at: i) } else { object.append(key: last, value: value) }
                container = .object(object)
            case .array(var array):
                let i = try index(last, in: array.count, of: path, allowingEnd: true)
                container = .null
                array.insert(value, at: i)
                container = .array(array)
            default:
                throw JSONPatchProblem("\"\(path)\": the parent is neither an object nor an array")
            }
        }
    }

    private static func remove(_ path: JSONPointer, in document: inout JSON) throws(JSONPatchProblem) -> JSON {
        guard let last = path.tokens.last else { throw JSONPatchProblem("\"\": the whole document cannot be removed (replace it)") }
        var removed = JSON.null
        try withContainer(of: path, in: &document) { (container: inout JSON) throws(JSONPatchProblem) in
            switch container {
            case .object(var object):
                guard let i = object.lastIndex(ofBytes: last) else { throw JSONPatchProblem("\"\(path)\": no member \"\(last)\" to remove") }
                container = .null
                removed = object.members[i].value
                object.removeMember(at: i)
                container = .object(object)
            case .array(var array):
                let i = try index(last, in: array.count, of: path, allowingEnd: false)
                container = .null
                removed = array.remove(at: i)
                container = .array(array)
            default:
                throw JSONPatchProblem("\"\(path)\": the parent is neither an object nor an array")
            }
        }
        return removed
    }

    /// An array index token checked against `count` elements; `-` (the
    /// end) only when `allowingEnd`, for `add`.
    private static func index(_ token: String, in count: Int, of path: JSONPointer, allowingEnd: Bool) throws(JSONPatchProblem) -> Int {
        if token == "-" {
            guard allowingEnd else { throw JSONPatchProblem("\"\(path)\": \"-\" (past the last element) names no element") }
            return count
        }
        guard let i = JSONPointer.arrayIndex(token) else {
            throw JSONPatchProblem("\"\(path)\": \"\(token)\" is not an array index (0, or digits without a leading zero)")
        }
        guard i < count || (allowingEnd && i == count) else { throw JSONPatchProblem("\"\(path)\": index \(i) is out of range (\(count) elements)") }
        return i
    }

    private static func prefix(_ pointer: JSONPointer, _ count: Int) -> JSONPointer {
        JSONPointer(tokens: Array(pointer.tokens.prefix(count)))
    }

    /// Calls `body` with the container that holds the value `path` names
    /// (the value at all but its last token), in place: each container on
    /// the way is taken out of its parent while the child changes, so no
    /// array or object is copied, and put back after, without recursion.
    private static func withContainer(of path: JSONPointer, in document: inout JSON,
                                      _ body: (inout JSON) throws(JSONPatchProblem) -> Void) throws(JSONPatchProblem) {
        enum Slot { case member(Int), element(Int) }
        var parents: [(container: JSON, slot: Slot)] = []
        var current = document
        document = .null
        // Puts the chain back together whether or not `body` succeeded.
        func rebuild() {
            while let (container, slot) = parents.popLast() {
                switch (container, slot) {
                case (.object(var object), .member(let i)):
                    object.setValue(current, at: i)
                    current = .object(object)
                case (.array(var array), .element(let i)):
                    array[i] = current
                    current = .array(array)
                default:
                    current = container
                }
            }
            document = current
        }
        let tokens = path.tokens.dropLast()
        for (depth, token) in tokens.enumerated() {
            switch current {
            case .object(var object):
                guard let i = object.lastIndex(ofBytes: token) else {
                    rebuild()
                    throw JSONPatchProblem("\"\(prefix(path, depth + 1))\": no such member")
                }
                current = .null
                let child = object.members[i].value
                object.setValue(.null, at: i)
                parents.append((.object(object), .member(i)))
                current = child
            case .array(var array):
                let i: Int
                do throws(JSONPatchProblem) {
                    i = try index(token, in: array.count, of: prefix(path, depth + 1), allowingEnd: false)
                } catch {
                    rebuild()
                    throw error
                }
                current = .null
                let child = array[i]
                array[i] = .null
                parents.append((.array(array), .element(i)))
                current = child
            default:
                rebuild()
                throw JSONPatchProblem("\"\(prefix(path, depth + 1))\": \"\(prefix(path, depth))\" is neither an object nor an array")
            }
        }
        do throws(JSONPatchProblem) {
            try body(&current)
        } catch {
            rebuild()
            throw error
        }
        rebuild()
    }
}

/// What went wrong inside one op, before its index is known.
package struct JSONPatchProblem: Error {
    package var text: String
    package init(_ text: String) { self.text = text }
}
