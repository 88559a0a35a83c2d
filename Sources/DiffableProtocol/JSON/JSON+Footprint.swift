extension JSON {
    /// About the bytes this value takes in memory, its heap storage included:
    /// a slot per value, each array's and object's buffer, each string too
    /// long to be stored inline. Used to bound what queued messages hold.
    ///
    /// Walks the tree with an explicit stack of (container, next child), so
    /// no input can overflow the call stack, and nothing is copied.
    /// - Complexity: O(values in the tree).
    package var footprint: Int {
        var total = MemoryLayout<JSON>.stride + Self.ownStorage(self)
        var stack: [(container: JSON, next: Int)] = [(self, 0)]
        while let (container, next) = stack.last {
            let child: JSON
            switch container {
            case .array(let elements) where next < elements.count:
                child = elements[next]
            case .object(let object) where next < object.count:
                child = object.members[next].value
            default:
                stack.removeLast()
                continue
            }
            stack[stack.count - 1].next += 1
            total += Self.ownStorage(child)
            switch child {
            case .array, .object: stack.append((child, 0))
            default: break
            }
        }
        return total
    }

    /// Heap bytes held by `value` itself, not by its children: its slots,
    /// its keys, its text.
    private static func ownStorage(_ value: JSON) -> Int {
        // A heap buffer's headers (the allocator's and Swift's), roughly.
        let header = 48
        // Strings of up to 15 UTF-8 bytes are stored inline.
        func text(_ count: Int) -> Int { count > 15 ? header + count : 0 }
        switch value {
        case .null, .bool:
            return 0
        case .number(let s), .string(let s):
            return text(s.utf8.count)
        case .raw(let bytes):
            return header + bytes.count
        case .array(let elements):
            return elements.isEmpty ? 0 : header + elements.count * MemoryLayout<JSON>.stride
        case .object(let object):
            guard !object.isEmpty else { return 0 }
            var bytes = header + object.count * MemoryLayout<(key: String, value: JSON)>.stride
            for member in object.members { bytes += text(member.key.utf8.count) }
            // A large object's key index: a hash table of about twice its count.
            if object.count > JSONObject.indexThreshold {
                bytes += header + 2 * object.count * (MemoryLayout<String>.stride + MemoryLayout<Int>.stride)
            }
            return bytes
        }
    }
}
