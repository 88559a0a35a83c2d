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
    static func consumeCanonical(_ s: inout ByteScanner, _ item: Item) -> Range<Int>? {
        let matched: (id: Range<Int>, end: Int)? = item.id.utf8.withContiguousStorageIfAvailable { id -> (Range<Int>, Int)? in
            let start = s.pos
            guard s.bytes(start ..< start + 7, equal: #"{"id":""#) else { return nil }
            let idStart = start + 7, idEnd = idStart + id.count
            guard same(s, at: idStart, id), isPlainString(s, idStart ..< idEnd) else { return nil }
            guard let content = item.content else {
                return s.bytes(idEnd ..< idEnd + 2, equal: #""}"#) ? (idStart ..< idEnd, idEnd + 2) : nil
            }
            let contentStart = idEnd + 12
            guard s.bytes(idEnd ..< contentStart, equal: #"","content":"#) else { return nil }
            let contentEnd = contentStart + content.bytes.count
            guard content.bytes.withUnsafeBufferPointer({ same(s, at: contentStart, $0) }),
                  s.byte(contentEnd) == UInt8(ascii: "}") else { return nil }
            return (idStart ..< idEnd, contentEnd + 1)
        } ?? nil
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

/// Reading a new item written the way the daemon writes items, without the
/// general member loop.
///
/// Clients that build requests with a JSON library write every item in one
/// shape: `{"id":"…","content":…}`, most often with content
/// `{"text":"…"}`. For that shape the member names are compared as
/// literals and each string is found with one word-at-a-time run, instead
/// of tokenizing every key and reading the content object a second time
/// for its `text`. Anything else (escapes, other members or order,
/// whitespace) is left to `decodeItem`, from the same place.
extension ApplyScanner {
    /// The item at the cursor when its bytes have exactly that shape (the
    /// cursor then after it; id hashed into `ids`, reused from `recycler`
    /// when it holds the same item); nil, cursor unmoved, otherwise.
    /// - Complexity: O(bytes of the element).
    static func decodeCanonicalItem(_ s: inout ByteScanner, ids: inout IDHashes,
                                    recycler: inout ItemRecycler) -> Item? {
        let start = s.pos
        guard s.bytes(start ..< start + 7, equal: #"{"id":""#) else { return nil }
        let idStart = start + 7
        let idEnd = ByteRuns.plainStringRunEnd(s.input, from: idStart, end: s.end)
        guard s.byte(idEnd) == UInt8(ascii: "\""),
              s.bytes(idEnd ..< idEnd + 12, equal: #"","content":"#) else { return nil }
        let contentStart = idEnd + 12
        let contentEnd: Int
        var text: Range<Int>?
        if s.bytes(contentStart ..< contentStart + 9, equal: #"{"text":""#) {
            let textStart = contentStart + 9
            let textEnd = ByteRuns.plainStringRunEnd(s.input, from: textStart, end: s.end)
            guard s.byte(textEnd) == UInt8(ascii: "\""), s.byte(textEnd + 1) == UInt8(ascii: "}") else { return nil }
            contentEnd = textEnd + 2
            text = textStart ..< textEnd
        } else {
            // Other content: a string (its text) or any canonical value.
            var value = s
            value.pos = contentStart
            guard let skipped = value.skipValue(), skipped.canonical,
                  s.byte(contentStart) != UInt8(ascii: "{"), s.byte(contentStart) != UInt8(ascii: "n") else { return nil }
            contentEnd = skipped.range.upperBound
            if s.byte(contentStart) == UInt8(ascii: "\"") { text = contentStart + 1 ..< contentEnd - 1 }
        }
        guard s.byte(contentEnd) == UInt8(ascii: "}") else { return nil }
        let idBytes = s.bytes(of: idStart ..< idEnd), contentBytes = s.bytes(of: contentStart ..< contentEnd)
        s.pos = contentEnd + 1
        ids.add(idBytes)
        if let held = recycler.take(id: idBytes, content: contentBytes) { return held }
        let content = Content(bytes: Array(contentBytes))
        let id = String(decoding: idBytes, as: UTF8.self)
        guard let text else { return Item(id: id, content: content) }
        return Item(id: id, content: content, textRange: text.lowerBound - contentStart ..< text.upperBound - contentStart)
    }
}
