import DiffableProtocol
/// Finds the `id` of a request from the first bytes of its body, so that
/// the answer to a message too large to read can still name its request.
///
/// Only the top level of the object is read, by the JSON grammar's own
/// reader (`JSONValidator`, iterative whatever the nesting); a value cut
/// off by the end of the bytes, or not valid, ends the search: nothing is
/// guessed at.
enum RequestIDScanner {
    /// The top-level `"id"` member of the object `head` starts with, when it
    /// is a string or a number and lies whole in `head`; else nil. The first
    /// `"id"` member counts (clients write it near the start).
    /// - Complexity: O(head.count).
    static func id(in head: [UInt8]) -> JSON? {
        head.withUnsafeBufferPointer { buffer -> JSON? in
            // Nesting is not limited here: the message is not being read,
            // only stepped over up to its id.
            var v = JSONValidator(buffer, maxDepth: .max)
            v.skipWhitespace()
            guard v.byte(v.pos) == UInt8(ascii: "{") else { return nil }
            v.pos += 1
            while true {
                guard let (name, escaped) = v.memberName() else { return nil }
                let isID = !escaped && buffer[name].elementsEqual("id".utf8)
                let valueStart = v.pos
                guard v.skipValue(depth: 1) else { return nil }
                let valueEnd = v.pos
                // The value ends where its object goes on: a number running
                // into the end of `head` may go on.
                v.skipWhitespace()
                guard let next = v.byte(v.pos), next == UInt8(ascii: ",") || next == UInt8(ascii: "}") else { return nil }
                if isID {
                    switch try? JSONParser.parse(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: buffer[valueStart ..< valueEnd]))) {
                    case .string(let s)?: return .string(s)
                    case .number(let n)?: return .number(n)
                    default: return nil
                    }
                }
                guard next == UInt8(ascii: ",") else { return nil }
                v.pos += 1
            }
        }
    }
}
