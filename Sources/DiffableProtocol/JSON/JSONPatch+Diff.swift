import DiffableEngine

extension JSONPatch {
    /// The daemon's RFC 6902 patch from `old` to `new`, written compactly
    /// (`[{"op":…},…]`), or nil when it would be longer than `new` written
    /// out (then the content itself is sent). Applying it to `old` (see
    /// `apply`) gives `new` exactly, member order and number spellings
    /// included. The output is a function of the two values alone.
    ///
    /// The rules (protocol/README.md, "Field-level updates"):
    /// - equal values (same bytes once written) give no op;
    /// - two objects whose names are each unique, and whose common names
    ///   are in the same order, with new names after them: `remove` for
    ///   each gone name (old order), the common names compared, `add` for
    ///   each new name (new order);
    /// - two arrays of the same length: compared element by element;
    /// - two arrays of different lengths: the common prefix and suffix
    ///   (elements with equal bytes) are kept, the middles compared
    ///   element by element as far as the shorter goes, then the extra
    ///   old elements removed (`remove` at the same index, repeatedly) or
    ///   the extra new ones added (`add` at ascending indices);
    /// - anything else: `replace` of the value;
    /// - and wherever the ops for a value come out longer than one
    ///   `replace` of it, that `replace` instead.
    ///
    /// - Complexity: O(size of both values + size of the patch + Σ path
    ///   lengths of the values compared), plus the elements written out
    ///   to find a common prefix and suffix when array lengths differ.
    ///   Iterative: no recursion, whatever the depth.
    package static func diff(from old: JSON, to new: JSON) -> [UInt8]? {
        var stack: [Frame] = []
        var result: (ops: [[UInt8]], size: Int)
        switch plan(path: "", old, new) {
        case .equal: return [UInt8(ascii: "["), UInt8(ascii: "]")]
        case .replace: return nil
        case .descend(let frame): stack.append(frame)
        }
        while true {
            guard var top = stack.popLast() else { return nil }
            if top.next < top.children.count {
                let child = top.children[top.next]
                top.next += 1
                let path = top.path + "/" + JSONPointer.escape(child.token)
                switch plan(path: path, child.old, child.new) {
                case .equal:
                    top.newSize += size(of: child.new)
                    stack.append(top)
                case .replace:
                    let valueSize = size(of: child.new)
                    top.newSize += valueSize
                    top.add(op("replace", path: path, value: child.new))
                    stack.append(top)
                case .descend(let frame):
                    stack.append(top)
                    stack.append(frame)
                }
                continue
            }
            let finished = top.finish()
            guard var parent = stack.popLast() else {
                result = finished.ops
                break
            }
            parent.newSize += top.newSize
            for fragment in finished.ops.ops { parent.add(fragment) }
            stack.append(parent)
        }
        let patchSize = result.size + 2
        guard patchSize <= size(of: new) else { return nil }
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        bytes.reserveCapacity(patchSize)
        for (i, fragment) in result.ops.enumerated() {
            if i > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += fragment
        }
        bytes.append(UInt8(ascii: "]"))
        return bytes
    }

    /// `diff` of two stored contents (canonical JSON); nil when either is
    /// not JSON the daemon could have stored, or when the content is smaller.
    ///
    /// Read in place when both are in the daemon's form (always, for
    /// stored contents; see `canonicalDiff`), else parsed.
    package static func diff(from old: [UInt8], to new: [UInt8]) -> [UInt8]? {
        let walked = old.withUnsafeBufferPointer { a in new.withUnsafeBufferPointer { b in canonicalDiff(from: a, to: b) } }
        switch walked {
        case .patch(let patch): return patch
        case .content: return nil
        case .unreadable: return treeDiff(from: old, to: new)
        }
    }

    /// `diff` of two stored contents, read in place.
    package static func diff(from old: Content, to new: Content) -> [UInt8]? {
        let walked = old.withUnsafeBytes { a in
            new.withUnsafeBytes { b in canonicalDiff(from: a.bindMemory(to: UInt8.self), to: b.bindMemory(to: UInt8.self)) }
        }
        switch walked {
        case .patch(let patch): return patch
        case .content: return nil
        case .unreadable: return treeDiff(from: old.bytes, to: new.bytes)
        }
    }

    /// `diff` of two contents through their trees.
    package static func treeDiff(from old: [UInt8], to new: [UInt8]) -> [UInt8]? {
        guard let a = try? JSONParser.parse(old, maxDepth: NestingLimits.content),
              let b = try? JSONParser.parse(new, maxDepth: NestingLimits.content),
              let patch = diff(from: a, to: b), patch.count <= new.count
        else { return nil }
        return patch
    }

    // MARK: the walk

    /// A pair of containers being compared: the ops before their children
    /// (`remove`s of gone names), the children still to compare, the ops
    /// so far and after (`add`s, array `remove`s), and the written size of
    /// the new value, summed as its parts are met.
    private struct Frame {
        package var path: String
        package var new: JSON
        package var leading: [[UInt8]]
        package var children: [(token: String, old: JSON, new: JSON)]
        package var trailing: [[UInt8]]
        package var next = 0
        package var ops: [[UInt8]] = []
        package var opsSize = 0
        package var newSize: Int

        package mutating func add(_ fragment: [UInt8]) {
            opsSize += fragment.count + (ops.isEmpty ? 0 : 1)
            ops.append(fragment)
        }

        /// All the frame's ops, or one `replace` when that is shorter.
        package func finish() -> (ops: (ops: [[UInt8]], size: Int), newSize: Int) {
            let all = leading + ops + trailing
            guard !all.isEmpty else { return (([], 0), newSize) }
            let allSize = all.reduce(all.count - 1) { $0 + $1.count }
            let replaceSize = JSONPatch.replacePrefixSize + JSONPatch.size(of: .string(path)) + newSize + 1
            if allSize <= replaceSize { return ((all, allSize), newSize) }
            let replace = JSONPatch.op("replace", path: path, value: new)
            return (([replace], replace.count), newSize)
        }
    }

    private enum Plan {
        case equal
        case replace
        case descend(Frame)
    }

    /// `{"op":"replace","path":` and `,"value":`.
    package static let replacePrefixSize = 23 + 9

    /// How a pair of values is compared: leaves at once, containers
    /// through a frame.
    private static func plan(path: String, _ old: JSON, _ new: JSON) -> Plan {
        switch (old, new) {
        case (.null, .null):
            return .equal
        case (.bool(let a), .bool(let b)):
            return a == b ? .equal : .replace
        case (.number(let a), .number(let b)):
            return a.utf8.elementsEqual(b.utf8) ? .equal : .replace
        case (.string(let a), .string(let b)):
            return a.utf8.elementsEqual(b.utf8) ? .equal : .replace
        case (.object(let a), .object(let b)):
            if let frame = objectPlan(path: path, a, b, new: new) { return .descend(frame) }
            // Equal values give no op, even objects that repeat a name.
            return JSONWriter.bytes(old) == JSONWriter.bytes(new) ? .equal : .replace
        case (.array(let a), .array(let b)):
            return .descend(arrayPlan(path: path, a, b, new: new))
        case (.raw, _), (_, .raw):
            return JSONWriter.bytes(old) == JSONWriter.bytes(new) ? .equal : .replace
        default:
            return .replace
        }
    }

    /// Nil when the names repeat or the order changed (the object is then
    /// replaced whole: ops could not give the new order).
    private static func objectPlan(path: String, _ old: JSONObject, _ new: JSONObject, new value: JSON) -> Frame? {
        let oldNames = old.members.map { Array($0.key.utf8) }, newNames = new.members.map { Array($0.key.utf8) }
        let oldSet = Set(oldNames), newSet = Set(newNames)
        guard oldSet.count == oldNames.count, newSet.count == newNames.count else { return nil }
        var leading: [[UInt8]] = [], children: [(token: String, old: JSON, new: JSON)] = []
        for (i, member) in old.members.enumerated() {
            if newSet.contains(oldNames[i]) {
                let j = children.count
                guard j < newNames.count, newNames[j] == oldNames[i] else { return nil }
                children.append((member.key, member.value, new.members[j].value))
            } else {
                leading.append(op("remove", path: path + "/" + JSONPointer.escape(member.key), value: nil))
            }
        }
        var trailing: [[UInt8]] = []
        // Braces, commas, and each kept name with its colon; values are added as they are met.
        var newSize = 2 + max(0, new.count - 1)
        for (j, member) in new.members.enumerated() {
            newSize += size(of: .string(member.key)) + 1
            if j >= children.count {
                newSize += size(of: member.value)
                trailing.append(op("add", path: path + "/" + JSONPointer.escape(member.key), value: member.value))
            }
        }
        return Frame(path: path, new: value, leading: leading, children: children, trailing: trailing, newSize: newSize)
    }

    private static func arrayPlan(path: String, _ old: [JSON], _ new: [JSON], new value: JSON) -> Frame {
        var newSize = 2 + max(0, new.count - 1)
        guard old.count != new.count else {
            let children = zip(old, new).enumerated().map { (token: String($0.offset), old: $0.element.0, new: $0.element.1) }
            return Frame(path: path, new: value, leading: [], children: children, trailing: [], newSize: newSize)
        }
        let shorter = min(old.count, new.count)
        var prefix = 0
        while prefix < shorter {
            let bytes = JSONWriter.bytes(new[prefix])
            guard bytes == JSONWriter.bytes(old[prefix]) else { break }
            newSize += bytes.count
            prefix += 1
        }
        var suffix = 0
        while prefix + suffix < shorter {
            let bytes = JSONWriter.bytes(new[new.count - 1 - suffix])
            guard bytes == JSONWriter.bytes(old[old.count - 1 - suffix]) else { break }
            newSize += bytes.count
            suffix += 1
        }
        let oldMiddle = old.count - prefix - suffix, newMiddle = new.count - prefix - suffix
        var children: [(token: String, old: JSON, new: JSON)] = []
        for k in 0..<min(oldMiddle, newMiddle) {
            children.append((String(prefix + k), old[prefix + k], new[prefix + k]))
        }
        var trailing: [[UInt8]] = []
        if oldMiddle > newMiddle {
            let removal = op("remove", path: path + "/" + String(prefix + newMiddle), value: nil)
            trailing = Array(repeating: removal, count: oldMiddle - newMiddle)
        } else {
            for k in oldMiddle..<newMiddle {
                let element = new[prefix + k]
                newSize += size(of: element)
                trailing.append(op("add", path: path + "/" + String(prefix + k), value: element))
            }
        }
        return Frame(path: path, new: value, leading: [], children: children, trailing: trailing, newSize: newSize)
    }

    /// One op written compactly: `{"op","path","value"?}`.
    private static func op(_ name: String, path: String, value: JSON?) -> [UInt8] {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key(raw: "op")
        writer.appendString(name)
        writer.key(raw: "path")
        writer.appendString(path)
        if let value {
            writer.key(raw: "value")
            writer.append(value)
        }
        writer.endObject()
        return writer.bytes
    }

    private static func size(of value: JSON) -> Int {
        JSONWriter.bytes(value).count
    }
}
