extension JSONPatch {
    /// `apply(ops, to:)` of a content in the daemon's form (see
    /// `CanonicalJSON`), done on its bytes: each `add`, `remove`, `replace`
    /// or `test` finds its place by reading the containers on its path and
    /// splices the value's bytes in or the member's bytes out, so nothing
    /// is parsed but the values a `test` compares. The result is the bytes
    /// the general path (parse, apply, write) gives, with the content's
    /// search text (as `SnapshotCodec.searchText(of:)` finds it).
    ///
    /// Nil when an op is one this path leaves to the general one (`move`,
    /// `copy`, a path deeper than `canonicalDepth` tokens), when an op does
    /// not apply, when a value would nest the content deeper than
    /// `NestingLimits.content`, when the result is `null` (no content), or
    /// when the bytes are not in the daemon's form: the general path then
    /// answers, failures and their messages included.
    ///
    /// - Complexity: O(ops × (size of the content × tokens of the op's path
    ///   + size of its value)).
    package static func spliced(_ ops: [Operation], into content: UnsafeBufferPointer<UInt8>) -> (bytes: [UInt8], text: String?)? {
        // Read whole once: every part of the result is then in the daemon's
        // form (the content's bytes, and values the writer wrote). A first
        // op below the root reads it whole on its way (every member or
        // element of the root container, each value checked to its end,
        // the closing bracket last), so it is not read twice.
        guard readsRootWhole(ops.first) || CanonicalJSON(content).valueEnd(0) == content.count else { return nil }
        // Still the content itself until the first change.
        var changed: [UInt8]?
        for op in ops {
            let step: Splice?? = changed?.withUnsafeBufferPointer { splice(op, CanonicalJSON($0)) } ?? splice(op, CanonicalJSON(content))
            guard let step else { return nil }
            guard let step else { continue }
            if changed == nil {
                var bytes: [UInt8] = []
                bytes.reserveCapacity(content.count - step.range.count + step.bytes.count)
                bytes += UnsafeBufferPointer(rebasing: content[..<step.range.lowerBound])
                bytes += step.bytes
                bytes += UnsafeBufferPointer(rebasing: content[step.range.upperBound...])
                changed = bytes
            } else {
                changed?.replaceSubrange(step.range, with: step.bytes)
            }
        }
        let document = changed ?? Array(content)
        guard document != nullBytes else { return nil }
        let text: String?? = document.withUnsafeBufferPointer { CanonicalJSON($0).searchText() }
        guard let text else { return nil }
        return (document, text)
    }

    private static let nullBytes = Array("null".utf8)

    /// Whether `splice` of `op` on a document checks the whole of it before
    /// changing anything (or answers nil): an `add`, `replace`, `remove` or
    /// `test` below the root lists the root container's members or
    /// elements (`lastMember`, `members`, `elements`), which reads each to
    /// its end, and a root that is not a container leaves the op to the
    /// general path.
    private static func readsRootWhole(_ op: Operation?) -> Bool {
        switch op {
        case .add(let path, _)?, .replace(let path, _)?, .remove(let path)?, .test(let path, _)?:
            return !path.tokens.isEmpty
        default:
            return false
        }
    }

    /// A change of a document's bytes: `range` replaced by `bytes`.
    private struct Splice {
        package var range: Range<Int>
        package var bytes: [UInt8]
    }

    /// The change one op makes (inner nil: none, a `test` that holds);
    /// nil when it is left to the general path.
    private static func splice(_ op: Operation, _ json: CanonicalJSON) -> Splice?? {
        let whole = 0 ..< json.bytes.count
        switch op {
        case .replace(let path, let value), .add(let path, let value):
            guard let bytes = valueBytes(value, under: path) else { return nil }
            guard let last = path.tokens.last else { return .some(Splice(range: whole, bytes: bytes)) }
            guard let container = self.container(of: path, json) else { return nil }
            let isAdd: Bool
            if case .add = op { isAdd = true } else { isAdd = false }
            if json.byte(container.lowerBound) == CanonicalJSON.openBrace {
                let name = nameBytes(last)
                guard let found = json.lastMember(of: container, named: name) else { return nil }
                if let member = found { return .some(Splice(range: member.value, bytes: bytes)) }
                guard isAdd else { return nil }
                // A new name is appended: `,"name":value` before the `}`.
                let isEmpty = container.count == 2
                var added: [UInt8] = isEmpty ? [] : [CanonicalJSON.comma]
                added += [CanonicalJSON.quote] + name + [CanonicalJSON.quote, CanonicalJSON.colon] + bytes
                return .some(Splice(range: container.upperBound - 1 ..< container.upperBound - 1, bytes: added))
            }
            guard let elements = json.elements(of: container) else { return nil }
            if !isAdd {
                guard let i = JSONPointer.arrayIndex(last), i < elements.count else { return nil }
                return .some(Splice(range: elements[i], bytes: bytes))
            }
            let i = last == "-" ? elements.count : JSONPointer.arrayIndex(last)
            guard let i, i <= elements.count else { return nil }
            if i < elements.count { return .some(Splice(range: elements[i].lowerBound ..< elements[i].lowerBound, bytes: bytes + [CanonicalJSON.comma])) }
            let end = container.upperBound - 1
            return .some(Splice(range: end ..< end, bytes: (elements.isEmpty ? [] : [CanonicalJSON.comma]) + bytes))
        case .remove(let path):
            guard let last = path.tokens.last, let container = self.container(of: path, json) else { return nil }
            // The value and one comma next to it go.
            var ranges: [Range<Int>]
            var i: Int
            if let members = json.members(of: container) {
                let name = nameBytes(last)
                guard let found = members.lastIndex(where: { json.name($0.name, equals: name) }) else { return nil }
                ranges = members.map { $0.name.lowerBound - 1 ..< $0.value.upperBound }
                i = found
            } else {
                guard let elements = json.elements(of: container), let found = JSONPointer.arrayIndex(last),
                      found < elements.count else { return nil }
                ranges = elements
                i = found
            }
            let range = ranges.count == 1 ? ranges[i]
                : i > 0 ? ranges[i - 1].upperBound ..< ranges[i].upperBound
                : ranges[i].lowerBound ..< ranges[i + 1].lowerBound
            return .some(Splice(range: range, bytes: []))
        case .test(let path, let expected):
            guard path.tokens.count <= canonicalDepth, let target = value(at: path, json),
                  let actual = try? JSONParser.parse(Array(json.bytes[target]), maxDepth: NestingLimits.content),
                  equal(actual, expected) else { return nil }
            return .some(nil)
        case .move, .copy:
            return nil
        }
    }

    /// The canonical bytes of a value written at `path`; nil when the
    /// content would nest too deep there.
    private static func valueBytes(_ value: JSON, under path: JSONPointer) -> [UInt8]? {
        guard path.tokens.count <= canonicalDepth else { return nil }
        return JSONWriter.bytes(value, maxDepth: NestingLimits.content - path.tokens.count)
    }

    /// The container that holds what `path` names (the value at all its
    /// tokens but the last).
    private static func container(of path: JSONPointer, _ json: CanonicalJSON) -> Range<Int>? {
        guard path.tokens.count <= canonicalDepth else { return nil }
        return value(at: JSONPointer(tokens: Array(path.tokens.dropLast())), json)
    }

    /// The value `pointer` names: the last member with each name, the
    /// element at each index.
    private static func value(at pointer: JSONPointer, _ json: CanonicalJSON) -> Range<Int>? {
        var current = 0 ..< json.bytes.count
        for token in pointer.tokens {
            if json.byte(current.lowerBound) == CanonicalJSON.openBrace {
                guard let found = json.lastMember(of: current, named: nameBytes(token)), let member = found else { return nil }
                current = member.value
            } else if let elements = json.elements(of: current), let i = JSONPointer.arrayIndex(token), i < elements.count {
                current = elements[i]
            } else {
                return nil
            }
        }
        return current
    }

    /// A member name as the writer spells it between the quotes.
    private static func nameBytes(_ token: String) -> [UInt8] {
        let plain = !token.utf8.contains { $0 < 0x20 || $0 == CanonicalJSON.quote || $0 == CanonicalJSON.backslash }
        return plain ? Array(token.utf8) : CanonicalJSON.escapedInner(token)
    }
}
