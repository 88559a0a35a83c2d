extension JSONPatch {
    /// What the byte walk made of two contents.
    package enum CanonicalDiff: Equatable {
        /// The patch, written compactly.
        case patch([UInt8])
        /// Send the content: the patch would be longer.
        case content
        /// The bytes are not both in the daemon's form, or nest deeper
        /// than the walk goes (`canonicalDepth`): use the general path.
        case unreadable
    }

    /// How deep the byte walk descends before leaving a pair to the
    /// general path: each level lists its members again from the bytes,
    /// so a walk `d` deep reads the innermost bytes `d` times.
    package static let canonicalDepth = 32

    /// `diff(from:to:)` of two contents in the daemon's form, read in place
    /// (see `CanonicalJSON`): the same rules, ops and bytes as parsing both
    /// and diffing the trees, without building them. Values compare by
    /// their bytes, a member's token is its name's bytes (escaped for the
    /// pointer when they hold `~`, `/` or an escape), an op's value is the
    /// new value's bytes, and a value's written size is its byte count.
    /// - Complexity: O(size of both × (depth of the walk ≤ `canonicalDepth`)
    ///   + size of the patch); iterative.
    package static func canonicalDiff(from old: UnsafeBufferPointer<UInt8>, to new: UnsafeBufferPointer<UInt8>) -> CanonicalDiff {
        let a = CanonicalJSON(old), b = CanonicalJSON(new)
        if let flat = flatObjectDiff(a, b) { return flat }
        guard a.valueEnd(0) == old.count, b.valueEnd(0) == new.count else { return .unreadable }
        var stack: [ByteFrame] = []
        switch plan(path: [], a, 0 ..< old.count, b, 0 ..< new.count) {
        case .equal: return new.count >= 2 ? .patch([UInt8(ascii: "["), UInt8(ascii: "]")]) : .content
        case .replace: return .content
        case .unreadable: return .unreadable
        case .descend(let frame): stack.append(frame)
        }
        var result: (ops: [[UInt8]], size: Int)
        while true {
            guard var top = stack.popLast() else { return .unreadable }
            if top.next < top.children.count {
                let child = top.children[top.next]
                top.next += 1
                if a.equal(child.old, b, child.new) {
                    stack.append(top)
                    continue
                }
                // The token is written only for a pair that differs.
                let token: [UInt8]
                if let name = child.name {
                    guard let written = a.pointerToken(name: name) else { return .unreadable }
                    token = written
                } else {
                    token = Array(String(child.index).utf8)
                }
                let path = top.path + [UInt8(ascii: "/")] + token
                switch plan(path: path, a, child.old, b, child.new) {
                case .equal:
                    stack.append(top)
                case .replace:
                    top.add(op("replace", path: path, value: b, child.new))
                    stack.append(top)
                case .descend(let frame):
                    guard stack.count + 2 <= canonicalDepth else { return .unreadable }
                    stack.append(top)
                    stack.append(frame)
                case .unreadable:
                    return .unreadable
                }
                continue
            }
            let finished = top.finish(b)
            guard var parent = stack.popLast() else {
                result = finished
                break
            }
            for fragment in finished.ops { parent.add(fragment) }
            stack.append(parent)
        }
        guard result.size + 2 <= new.count else { return .content }
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        bytes.reserveCapacity(result.size + 2)
        for (i, fragment) in result.ops.enumerated() {
            if i > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += fragment
        }
        bytes.append(UInt8(ascii: "]"))
        return .patch(bytes)
    }

    /// A pair of values to compare: an object's members (`name`, in the
    /// old buffer) or an array's elements (`index`).
    private struct Child {
        package var name: Range<Int>?
        package var index: Int
        package var old: Range<Int>
        package var new: Range<Int>
    }

    /// A pair of containers being compared (see `Frame`), by ranges of
    /// the two buffers; `path` is the pointer as written inside a JSON
    /// string.
    private struct ByteFrame {
        package var path: [UInt8]
        package var new: Range<Int>
        package var leading: [[UInt8]]
        package var children: [Child]
        package var trailing: [[UInt8]]
        package var next = 0
        package var ops: [[UInt8]] = []

        package init(path: [UInt8], new: Range<Int>, leading: [[UInt8]] = [], children: [Child], trailing: [[UInt8]] = []) {
            (self.path, self.new, self.leading, self.children, self.trailing) = (path, new, leading, children, trailing)
        }

        package mutating func add(_ fragment: [UInt8]) { ops.append(fragment) }

        /// All the frame's ops, or one `replace` when that is shorter.
        package func finish(_ b: CanonicalJSON) -> (ops: [[UInt8]], size: Int) {
            let all = leading + ops + trailing
            guard !all.isEmpty else { return ([], 0) }
            let allSize = all.reduce(all.count - 1) { $0 + $1.count }
            // `{"op":"replace","path":` "path" `,"value":` new `}`
            let replaceSize = JSONPatch.replacePrefixSize + path.count + 2 + new.count + 1
            if allSize <= replaceSize { return (all, allSize) }
            let replace = JSONPatch.op("replace", path: path, value: b, new)
            return ([replace], replace.count)
        }
    }

    private enum BytePlan {
        case equal
        case replace
        case descend(ByteFrame)
        case unreadable
    }

    private static func plan(path: [UInt8], _ a: CanonicalJSON, _ old: Range<Int>,
                             _ b: CanonicalJSON, _ new: Range<Int>) -> BytePlan {
        if a.equal(old, b, new) { return .equal }
        switch (a.byte(old.lowerBound), b.byte(new.lowerBound)) {
        case (CanonicalJSON.openBrace, CanonicalJSON.openBrace):
            guard let oldMembers = a.members(of: old), let newMembers = b.members(of: new) else { return .unreadable }
            return objectPlan(path: path, a, oldMembers, b, newMembers, new: new)
        case (CanonicalJSON.openBracket, CanonicalJSON.openBracket):
            guard let oldElements = a.elements(of: old), let newElements = b.elements(of: new) else { return .unreadable }
            return arrayPlan(path: path, a, oldElements, b, newElements, new: new)
        default:
            return .replace
        }
    }

    /// As `objectPlan` of trees: replaced whole (`.replace`) when a name
    /// repeats or the common names changed order.
    private static func objectPlan(path: [UInt8], _ a: CanonicalJSON, _ old: [CanonicalJSON.Member],
                                   _ b: CanonicalJSON, _ new: [CanonicalJSON.Member], new value: Range<Int>) -> BytePlan {
        guard unique(a, old), unique(b, new) else { return .replace }
        var sameNames = old.count == new.count
        if sameNames {
            for (x, y) in zip(old, new) where !a.equal(x.name, b, y.name) {
                sameNames = false
                break
            }
        }
        if sameNames {
            // The usual case: the same names in the same order.
            let children = zip(old, new).map { Child(name: $0.name, index: 0, old: $0.value, new: $1.value) }
            return .descend(ByteFrame(path: path, new: value, children: children))
        }
        let newNames = new.map { Array(b.bytes[$0.name]) }
        let newSet = Set(newNames)
        var leading: [[UInt8]] = [], children: [Child] = []
        for member in old {
            let name = Array(a.bytes[member.name])
            if newSet.contains(name) {
                let j = children.count
                guard j < newNames.count, newNames[j] == name else { return .replace }
                children.append(Child(name: member.name, index: 0, old: member.value, new: new[j].value))
            } else {
                guard let token = a.pointerToken(name: member.name) else { return .unreadable }
                leading.append(op("remove", path: path + [UInt8(ascii: "/")] + token, value: nil, nil))
            }
        }
        var trailing: [[UInt8]] = []
        for member in new.dropFirst(children.count) {
            guard let token = b.pointerToken(name: member.name) else { return .unreadable }
            trailing.append(op("add", path: path + [UInt8(ascii: "/")] + token, value: b, member.value))
        }
        return .descend(ByteFrame(path: path, new: value, leading: leading, children: children, trailing: trailing))
    }

    /// Whether no two members have the same name (bytes).
    /// - Complexity: O(n²) name comparisons up to 32 members, else O(n) expected.
    private static func unique(_ json: CanonicalJSON, _ members: [CanonicalJSON.Member]) -> Bool {
        if members.count <= 32 {
            for i in members.indices {
                for j in members.indices where j > i && json.equal(members[i].name, json, members[j].name) { return false }
            }
            return true
        }
        return Set(members.map { Array(json.bytes[$0.name]) }).count == members.count
    }

    private static func arrayPlan(path: [UInt8], _ a: CanonicalJSON, _ old: [Range<Int>],
                                  _ b: CanonicalJSON, _ new: [Range<Int>], new value: Range<Int>) -> BytePlan {
        func token(_ i: Int) -> [UInt8] { Array(String(i).utf8) }
        guard old.count != new.count else {
            let children = zip(old, new).enumerated().map { Child(name: nil, index: $0.offset, old: $0.element.0, new: $0.element.1) }
            return .descend(ByteFrame(path: path, new: value, children: children))
        }
        let shorter = min(old.count, new.count)
        var prefix = 0
        while prefix < shorter, a.equal(old[prefix], b, new[prefix]) { prefix += 1 }
        var suffix = 0
        while prefix + suffix < shorter, a.equal(old[old.count - 1 - suffix], b, new[new.count - 1 - suffix]) { suffix += 1 }
        let oldMiddle = old.count - prefix - suffix, newMiddle = new.count - prefix - suffix
        var children: [Child] = []
        for k in 0..<min(oldMiddle, newMiddle) {
            children.append(Child(name: nil, index: prefix + k, old: old[prefix + k], new: new[prefix + k]))
        }
        var trailing: [[UInt8]] = []
        if oldMiddle > newMiddle {
            let removal = op("remove", path: path + [UInt8(ascii: "/")] + token(prefix + newMiddle), value: nil, nil)
            trailing = Array(repeating: removal, count: oldMiddle - newMiddle)
        } else {
            for k in oldMiddle..<newMiddle {
                trailing.append(op("add", path: path + [UInt8(ascii: "/")] + token(prefix + k), value: b, new[prefix + k]))
            }
        }
        return .descend(ByteFrame(path: path, new: value, children: children, trailing: trailing))
    }

    /// One op written compactly, `{"op","path","value"?}`, the path given
    /// as written inside its JSON string and the value as bytes of `json`.
    private static func op(_ name: StaticString, path: [UInt8], value json: CanonicalJSON?, _ value: Range<Int>?) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32 + path.count + (value?.count ?? 0))
        bytes += opPrefix
        bytes += UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
        bytes += pathPrefix
        bytes += path
        bytes.append(UInt8(ascii: "\""))
        if let json, let value {
            bytes += valuePrefix
            bytes += UnsafeBufferPointer(rebasing: json.bytes[value])
        }
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    private static let opPrefix = Array(#"{"op":""#.utf8)
    private static let pathPrefix = Array(#"","path":""#.utf8)
    private static let valuePrefix = Array(#","value":"#.utf8)

    /// The usual pair, walked in one pass without frames: two objects
    /// with the same unique names in the same order (at most 64), where
    /// no differing member holds a container on both sides. Each differing
    /// member is then one `replace` of it, which is what the frame walk
    /// gives. Nil for any other pair (the frame walk takes it).
    /// - Complexity: O(size of both + names²) with no allocation but the patch's.
    private static func flatObjectDiff(_ a: CanonicalJSON, _ b: CanonicalJSON) -> CanonicalDiff? {
        let oldRange = 0 ..< a.bytes.count, newRange = 0 ..< b.bytes.count
        guard case let firstOld?? = a.firstMember(of: oldRange), case let firstNew?? = b.firstMember(of: newRange) else { return nil }
        return withUnsafeTemporaryAllocation(of: (hash: UInt64, name: Range<Int>).self, capacity: 64) { names -> CanonicalDiff? in
            var patch: [UInt8] = [UInt8(ascii: "[")]
            var count = 0
            var nextOld: Int? = firstOld, nextNew: Int? = firstNew
            // A member whose bytes (and the `,` or `}` after them) lie in
            // the bytes both start with, or end with at the same distance
            // from their ends, reads the same in both: read once.
            let (prefix, suffix) = a.commonEnds(b)
            let delta = b.bytes.count - a.bytes.count
            while let i = nextOld {
                guard let j = nextNew, count < names.count,
                      case .member(let x, let afterOld) = a.member(at: i, in: oldRange) else { return nil }
                let y: CanonicalJSON.Member, afterNew: Int?
                if j == i, x.value.upperBound < prefix, afterOld != nil {  // the last one checks where its `}` is
                    (y, afterNew) = (x, afterOld)
                } else if j == i + delta, i >= a.bytes.count - suffix {
                    y = CanonicalJSON.Member(name: x.name.lowerBound + delta ..< x.name.upperBound + delta,
                                             value: x.value.lowerBound + delta ..< x.value.upperBound + delta)
                    afterNew = afterOld.map { $0 + delta }
                } else {
                    guard case .member(let read, let after) = b.member(at: j, in: newRange),
                          a.equal(x.name, b, read.name) else { return nil }
                    (y, afterNew) = (read, after)
                }
                let hash = a.nameHash(x.name)
                for k in 0..<count where names[k].hash == hash && a.equal(names[k].name, a, x.name) { return nil }
                names[count] = (hash, x.name)
                count += 1
                if !a.equal(x.value, b, y.value) {
                    let first = a.bytes[x.value.lowerBound]
                    if (first == CanonicalJSON.openBrace || first == CanonicalJSON.openBracket),
                       b.bytes[y.value.lowerBound] == first { return nil }
                    guard let token = a.pointerToken(name: x.name) else { return nil }
                    if patch.count > 1 { patch.append(CanonicalJSON.comma) }
                    patch += replacePathPrefix
                    patch += token
                    patch += valueAfterPath
                    patch += UnsafeBufferPointer(rebasing: b.bytes[y.value])
                    patch.append(CanonicalJSON.closeBrace)
                    // Past the content's size: the content is sent.
                    if patch.count + 1 > b.bytes.count { return .content }
                }
                nextOld = afterOld
                nextNew = afterNew
            }
            guard nextNew == nil else { return nil }
            patch.append(CanonicalJSON.closeBracket)
            return .patch(patch)
        }
    }

    private static let replacePathPrefix = Array(#"{"op":"replace","path":"/"#.utf8)
    private static let valueAfterPath = Array(#"","value":"#.utf8)
}
