import DiffableEngine

/// Reading a new item written the way the daemon writes items, without the
/// general member loop.
///
/// Clients that build requests with a JSON library write every item in one
/// shape: `{"id":"…","content":…}`, most often with content
/// `{"text":"…"}`, or `{"id":"…"}`. For that shape the member names are
/// compared as literals and each string is found with one word-at-a-time
/// run, instead
/// of tokenizing every key and reading the content object a second time
/// for its `text`. Anything else (escapes, other members or order,
/// whitespace) is left to `decodeItem`, from the same place.
extension ApplyScanner {
    /// The item at the cursor when its bytes have exactly that shape (the
    /// cursor then after it; reused from `recycler`
    /// when it holds the same item); nil, cursor unmoved, otherwise.
    /// - Complexity: O(bytes of the element).
    package static func decodeCanonicalItem(_ s: inout ByteScanner, arenas: inout ByteArena.Writer,
                                    recycler: inout ItemRecycler) -> Item? {
        let start = s.pos
        guard s.bytes(start ..< start + 7, equal: #"{"id":""#) else { return nil }
        let idStart = start + 7
        let idEnd = ByteRuns.plainStringRunEnd(s.input, from: idStart, end: s.end)
        guard s.byte(idEnd) == UInt8(ascii: "\"") else { return nil }
        if s.byte(idEnd + 1) == UInt8(ascii: "}") {
            // No content.
            let idBytes = s.bytes(of: idStart ..< idEnd)
            s.pos = idEnd + 2
            if let held = recycler.take(id: idBytes, content: nil) { return held }
            return arenas.item(id: UnsafeRawBufferPointer(idBytes), content: nil, textRange: nil)
        }
        guard s.bytes(idEnd ..< idEnd + 12, equal: #"","content":"#) else { return nil }
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
            guard let skipped = value.skipValue(maxDepth: NestingLimits.content), skipped.canonical,
                  s.byte(contentStart) != UInt8(ascii: "{"), s.byte(contentStart) != UInt8(ascii: "n") else { return nil }
            contentEnd = skipped.range.upperBound
            if s.byte(contentStart) == UInt8(ascii: "\"") { text = contentStart + 1 ..< contentEnd - 1 }
        }
        guard s.byte(contentEnd) == UInt8(ascii: "}") else { return nil }
        let idBytes = s.bytes(of: idStart ..< idEnd), contentBytes = s.bytes(of: contentStart ..< contentEnd)
        s.pos = contentEnd + 1
        if let held = recycler.take(id: idBytes, content: contentBytes) { return held }
        return arenas.item(id: UnsafeRawBufferPointer(idBytes), content: UnsafeRawBufferPointer(contentBytes),
                           textRange: text.map { $0.lowerBound - contentStart ..< $0.upperBound - contentStart })
    }
}
