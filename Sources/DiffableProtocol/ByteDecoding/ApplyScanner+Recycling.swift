import DiffableEngine
import Foundation

/// Recognizing, without parsing, an item that arrives exactly as the source
/// holds it.
///
/// A client re-sending its state sends most items unchanged, in the order
/// the source holds them, and usually in the canonical form the daemon
/// writes them in (`{"id":…,"content":…}`, no whitespace). For such an
/// element the bytes are compared with the form of the item the recycler
/// expects next (a few `memcmp`s, no tokenizing) and the stored item is
/// reused. Any difference (member order, whitespace, escapes, another
/// item) leaves the element to the normal reading, which is also what
/// decides every error, so the result is the same either way.
extension ApplyScanner {
    /// Consumes the element at the cursor when its bytes are exactly
    /// `{"id":"<id>","content":<content>}` (`{"id":"<id>"}` for an item
    /// without content) for `item`, whose id needs no escaping; returns
    /// where the id's bytes are.
    /// - Complexity: O(bytes of the element), in block compares.
    package static func consumeCanonical(_ s: inout ByteScanner, _ item: Item) -> Range<Int>? {
        let matched: (id: Range<Int>, end: Int)? = item.withIDBytes { raw -> (Range<Int>, Int)? in
            let id = raw.bindMemory(to: UInt8.self)
            let start = s.pos
            guard s.bytes(start ..< start + 7, equal: #"{"id":""#) else { return nil }
            let idStart = start + 7, idEnd = idStart + id.count
            guard same(s, at: idStart, id), isPlainString(s, idStart ..< idEnd) else { return nil }
            guard let content = item.content else {
                return s.bytes(idEnd ..< idEnd + 2, equal: #""}"#) ? (idStart ..< idEnd, idEnd + 2) : nil
            }
            let contentStart = idEnd + 12
            guard s.bytes(idEnd ..< contentStart, equal: #"","content":"#) else { return nil }
            let contentEnd = contentStart + content.byteCount
            guard content.withUnsafeBytes({ same(s, at: contentStart, $0.bindMemory(to: UInt8.self)) }),
                  s.byte(contentEnd) == UInt8(ascii: "}") else { return nil }
            return (idStart ..< idEnd, contentEnd + 1)
        }
        guard let matched else { return nil }
        s.pos = matched.end
        return matched.id
    }

    /// Whether `bytes` are at `offset` of the scanner's input.
    @inline(__always)
    private static func same(_ s: ByteScanner, at offset: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard offset + bytes.count <= s.end else { return false }
        guard let a = bytes.baseAddress, bytes.count > 0 else { return true }
        return memcmp(s.input.baseAddress.unsafelyUnwrapped + offset, a, bytes.count) == 0
    }

    /// Whether `range` holds no `"`, `\` or control byte: the string's
    /// bytes are its JSON form (an id with a quote in it could otherwise
    /// line up with a different element's bytes).
    private static func isPlainString(_ s: ByteScanner, _ range: Range<Int>) -> Bool {
        var i = range.lowerBound
        while true {
            i = ByteRuns.plainStringRunEnd(s.input, from: i, end: range.upperBound)
            if i >= range.upperBound { return true }
            if s.input[i] < 0x80 { return false }
            i += 1
        }
    }
}
