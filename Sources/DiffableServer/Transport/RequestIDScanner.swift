import DiffableProtocol
/// Finds the `id` of a request from the first bytes of its body, so that
/// the answer to a message too large to read can still name its request.
///
/// Only the top level of the object is read: nested values are stepped over
/// by counting brackets (no recursion, whatever the input), and a value cut
/// off by the end of the bytes is not guessed at.
enum RequestIDScanner {
    /// The top-level `"id"` member of the object `head` starts with, when it
    /// is a string or a number and lies whole in `head`; else nil. The first
    /// `"id"` member counts (clients write it near the start).
    /// - Complexity: O(head.count).
    static func id(in head: [UInt8]) -> JSON? {
        var i = skipSpace(head, 0)
        guard i < head.count, head[i] == UInt8(ascii: "{") else { return nil }
        i += 1
        while true {
            i = skipSpace(head, i)
            guard i < head.count, head[i] == UInt8(ascii: "\""), let keyEnd = stringEnd(head, i) else { return nil }
            let isID = head[(i + 1)..<keyEnd].elementsEqual("id".utf8)
            i = skipSpace(head, keyEnd + 1)
            guard i < head.count, head[i] == UInt8(ascii: ":") else { return nil }
            i = skipSpace(head, i + 1)
            guard let valueEnd = valueEnd(head, i) else { return nil }
            if isID {
                switch try? JSONParser.parse(Array(head[i..<valueEnd])) {
                case .string(let s)?: return .string(s)
                case .number(let n)?: return .number(n)
                default: return nil
                }
            }
            i = skipSpace(head, valueEnd)
            guard i < head.count, head[i] == UInt8(ascii: ",") else { return nil }
            i += 1
        }
    }

    private static func skipSpace(_ bytes: [UInt8], _ start: Int) -> Int {
        var i = start
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
        return i
    }

    /// The index of the quote that closes the string opening at `start`.
    private static func stringEnd(_ bytes: [UInt8], _ start: Int) -> Int? {
        var i = start + 1
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "\\") {
                i += 2
            } else if bytes[i] == UInt8(ascii: "\"") {
                return i
            } else {
                i += 1
            }
        }
        return nil
    }

    /// Just past the value starting at `start`, or nil when it does not end
    /// within `bytes`.
    private static func valueEnd(_ bytes: [UInt8], _ start: Int) -> Int? {
        guard start < bytes.count else { return nil }
        switch bytes[start] {
        case UInt8(ascii: "\""):
            return stringEnd(bytes, start).map { $0 + 1 }
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var i = start
            while i < bytes.count {
                switch bytes[i] {
                case UInt8(ascii: "\""):
                    guard let end = stringEnd(bytes, i) else { return nil }
                    i = end
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return i + 1 }
                default:
                    break
                }
                i += 1
            }
            return nil
        default:
            // A number or a literal: it ends where a delimiter is seen, and
            // one running into the end of `bytes` may be cut short.
            var i = start
            while i < bytes.count {
                switch bytes[i] {
                case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09:
                    return i > start ? i : nil
                default:
                    i += 1
                }
            }
            return nil
        }
    }
}
