import DiffableProtocol

/// Pairs of related JSON values (a value and an edited copy) and random
/// patches, for the JSON Patch property tests.
package enum JSONPatchGenerator {
    /// Number spellings that are equal in value, to make a number change
    /// only its spelling.
    package static let respellings: [[String]] = [["1", "1.0", "1e0", "10E-1"], ["0", "-0", "0.0", "0e5"], ["2.5", "25e-1", "2.50"]]

    /// A copy of `value` with a few random edits somewhere inside: leaves
    /// changed or respelled, members added, removed or reordered, array
    /// elements inserted, removed or changed.
    package static func edited<R: RandomNumberGenerator>(_ value: JSON, _ rng: inout R, depth: Int = 0) -> JSON {
        switch value {
        case .object(let object):
            var members = object.members.map { ($0.key, $0.value) }
            for _ in 0..<Int.random(in: 0...2, using: &rng) {
                switch Int.random(in: 0..<10, using: &rng) {
                case 0 where !members.isEmpty: members.remove(at: Int.random(in: 0..<members.count, using: &rng))
                case 1: members.append((JSONGenerator.string(&rng), JSONGenerator.value(&rng, depth: depth + 2)))
                case 2 where members.count > 1: members.swapAt(0, members.count - 1)
                case 3: members.insert(("k\(Int.random(in: 0..<5, using: &rng))", 1), at: Int.random(in: 0...members.count, using: &rng))
                default:
                    guard !members.isEmpty else { continue }
                    let i = Int.random(in: 0..<members.count, using: &rng)
                    members[i].1 = edited(members[i].1, &rng, depth: depth + 1)
                }
            }
            return .object(JSONObject(members))
        case .array(var elements):
            for _ in 0..<Int.random(in: 0...2, using: &rng) {
                switch Int.random(in: 0..<8, using: &rng) {
                case 0 where !elements.isEmpty: elements.remove(at: Int.random(in: 0..<elements.count, using: &rng))
                case 1: elements.insert(JSONGenerator.value(&rng, depth: depth + 2), at: Int.random(in: 0...elements.count, using: &rng))
                case 2: elements.append(JSONGenerator.value(&rng, depth: depth + 2))
                default:
                    guard !elements.isEmpty else { continue }
                    let i = Int.random(in: 0..<elements.count, using: &rng)
                    elements[i] = edited(elements[i], &rng, depth: depth + 1)
                }
            }
            return .array(elements)
        case .number(let lexeme):
            if let group = respellings.first(where: { $0.contains(lexeme) }), Bool.random(using: &rng) {
                return .number(group[Int.random(in: 0..<group.count, using: &rng)])
            }
            return Bool.random(using: &rng) ? value : JSONGenerator.value(&rng, depth: depth + 3)
        default:
            return Int.random(in: 0..<3, using: &rng) == 0 ? value : JSONGenerator.value(&rng, depth: depth + 3)
        }
    }

    /// Every pointer into `value` (containers' children), with a few that
    /// name nothing.
    package static func pointers(in value: JSON) -> [[String]] {
        var result: [[String]] = [[]]
        var pending: [([String], JSON)] = [([], value)]
        while let (path, node) = pending.popLast() {
            switch node {
            case .object(let object):
                for member in object.members { result.append(path + [member.key]); pending.append((path + [member.key], member.value)) }
                result.append(path + ["missing~/"])
            case .array(let elements):
                for (i, element) in elements.enumerated() { result.append(path + [String(i)]); pending.append((path + [String(i)], element)) }
                result += [path + ["-"], path + [String(elements.count)], path + ["01"]]
            default:
                result.append(path + ["0"])
            }
        }
        return result
    }

    /// A random patch of `count` ops over `value`'s pointers; some apply,
    /// some fail (missing paths, failing tests).
    package static func patch<R: RandomNumberGenerator>(for value: JSON, count: Int, _ rng: inout R) -> JSON {
        let paths = pointers(in: value)
        func pointer() -> String { JSONPointer(tokens: paths[Int.random(in: 0..<paths.count, using: &rng)]).description }
        return .array((0..<count).map { _ in
            let name = JSONPatch.names[Int.random(in: 0..<JSONPatch.names.count, using: &rng)]
            var members: [(String, JSON)] = [("op", .string(name)), ("path", .string(pointer()))]
            switch name {
            case "add", "replace": members.append(("value", JSONGenerator.value(&rng, depth: 3)))
            case "test":
                let target = paths[Int.random(in: 0..<paths.count, using: &rng)]
                members[1].1 = .string(JSONPointer(tokens: target).description)
                members.append(("value", Bool.random(using: &rng) ? (ReferencePatch.value(at: target, in: value) ?? .null) : .null))
            case "move", "copy": members.append(("from", .string(pointer())))
            default: break
            }
            return .object(JSONObject(members))
        })
    }
}

/// A second, plain implementation of RFC 6902 (recursive, for the small
/// values of the tests), to check the daemon's against.
package enum ReferencePatch {
    package static func value(at tokens: [String], in document: JSON) -> JSON? {
        guard let first = tokens.first else { return document }
        switch document {
        case .object(let o):
            guard let member = o.members.last(where: { Array($0.key.utf8) == Array(first.utf8) }) else { return nil }
            return value(at: Array(tokens.dropFirst()), in: member.value)
        case .array(let a):
            guard let i = index(first), i < a.count else { return nil }
            return value(at: Array(tokens.dropFirst()), in: a[i])
        default: return nil
        }
    }

    package static func index(_ token: String) -> Int? {
        guard token == "0" || (token.first != "0" && !token.isEmpty && token.allSatisfy { $0.isASCII && $0.isNumber }) else { return nil }
        return Int(token)
    }

    /// `document` with `body` applied to the value at `tokens`; nil when the path is missing.
    package static func updating(_ document: JSON, at tokens: [String], _ body: (JSON?, String?) -> JSON??) -> JSON? {
        guard let first = tokens.first else { return body(document, nil) ?? nil }
        if tokens.count == 1 {
            switch document {
            case .object(var o):
                let i = o.members.lastIndex { Array($0.key.utf8) == Array(first.utf8) }
                let result = body(i.map { o.members[$0].value }, first)
                switch (i, result) {
                case (_, nil): return nil
                case (let i?, .some(nil)): o.removeMember(at: i)
                case (let i?, .some(let v?)): o.setValue(v, at: i)
                case (nil, .some(let v?)): o.append(key: first, value: v)
                case (nil, .some(nil)): return nil
                }
                return .object(o)
            default:
                return nil
            }
        }
        switch document {
        case .object(var o):
            guard let i = o.members.lastIndex(where: { Array($0.key.utf8) == Array(first.utf8) }),
                  let child = updating(o.members[i].value, at: Array(tokens.dropFirst()), body) else { return nil }
            o.setValue(child, at: i)
            return .object(o)
        case .array(var a):
            guard let i = index(first), i < a.count, let child = updating(a[i], at: Array(tokens.dropFirst()), body) else { return nil }
            a[i] = child
            return .array(a)
        default:
            return nil
        }
    }

    package static func add(_ v: JSON, at tokens: [String], in document: JSON) -> JSON? {
        guard let last = tokens.last else { return v }
        let parent = Array(tokens.dropLast())
        if case .array(var a)? = value(at: parent, in: document) {
            let i = last == "-" ? a.count : index(last)
            guard let i, i <= a.count else { return nil }
            a.insert(v, at: i)
            return replace(.array(a), at: parent, in: document)
        }
        return updating(document, at: tokens) { _, _ in .some(v) }
    }

    package static func replace(_ v: JSON, at tokens: [String], in document: JSON) -> JSON? {
        guard let last = tokens.last else { return v }
        let parent = Array(tokens.dropLast())
        if case .array(var a)? = value(at: parent, in: document) {
            guard let i = index(last), i < a.count else { return nil }
            a[i] = v
            return parent.isEmpty ? .array(a) : replace(.array(a), at: parent, in: document)
        }
        return updating(document, at: tokens) { old, _ in old == nil ? nil : .some(v) }
    }

    package static func remove(at tokens: [String], in document: JSON) -> JSON? {
        guard let last = tokens.last else { return nil }
        let parent = Array(tokens.dropLast())
        if case .array(var a)? = value(at: parent, in: document) {
            guard let i = index(last), i < a.count else { return nil }
            a.remove(at: i)
            return replace(.array(a), at: parent, in: document)
        }
        return updating(document, at: tokens) { old, _ in old == nil ? nil : .some(nil) }
    }

    /// The patched document, or nil when any op fails.
    package static func apply(_ patch: JSON, to document: JSON) -> JSON? {
        guard case .array(let ops) = patch else { return nil }
        var doc = document
        for op in ops {
            guard case .string(let name)? = op["op"], case .string(let p)? = op["path"], let path = JSONPointer(p)?.tokens else { return nil }
            let from = op["from"]?.stringValue.flatMap { JSONPointer($0)?.tokens }
            let next: JSON?
            switch name {
            case "add": next = add(op["value"] ?? .null, at: path, in: doc)
            case "remove": next = remove(at: path, in: doc)
            case "replace": next = replace(op["value"] ?? .null, at: path, in: doc)
            case "copy": next = from.flatMap { f in value(at: f, in: doc).flatMap { add($0, at: path, in: doc) } }
            case "move":
                guard let f = from, let v = value(at: f, in: doc) else { return nil }
                if f.count < path.count, Array(path.prefix(f.count)).elementsEqual(f, by: { Array($0.utf8) == Array($1.utf8) }) { return nil }
                next = f.elementsEqual(path, by: { Array($0.utf8) == Array($1.utf8) }) ? doc : remove(at: f, in: doc).flatMap { add(v, at: path, in: $0) }
            case "test": next = value(at: path, in: doc).flatMap { JSONPatch.equal($0, op["value"] ?? .null) ? doc : Optional<JSON>.none }
            default: return nil
            }
            guard let next else { return nil }
            doc = next
        }
        return doc
    }
}
