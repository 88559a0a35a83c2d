/// Writing an item's bytes: into an arena of its own (`init`, the setters)
/// or a shared one (`ByteArena.Builder`), and moving them (`rebased`).
extension Item {
    /// Where the search text is to be kept.
    enum TextPlacement {
        /// Bytes `start ..< end` of the content.
        case inContent(start: UInt32, end: UInt32)
        /// Its own bytes, stored after the content.
        case outside(String)

        /// Bytes `range` of a content of `count` bytes; nil when they are
        /// not all in it.
        static func inContent(_ range: Range<Int>?, count: Int) -> TextPlacement? {
            guard let range, range.lowerBound >= 0, range.upperBound <= count else { return nil }
            return .inContent(start: UInt32(truncatingIfNeeded: range.lowerBound),
                              end: UInt32(truncatingIfNeeded: range.upperBound))
        }
    }

    /// The text, as it must be kept when the id or content changes: its
    /// range when it lies in the content (it then reads the new content,
    /// as a range of the content always has), else its bytes.
    var textPlacement: TextPlacement? {
        guard hasText else { return nil }
        if contentCount != Self.noContent, textEnd <= contentCount { return .inContent(start: textStart, end: textEnd) }
        return text.map { .outside($0) }
    }

    /// An item in an arena of its own: `[id][content][text, when outside]`.
    /// - Complexity: O(bytes of the item)
    static func make(id: String, content: Content?, text: TextPlacement?) -> Item {
        var bytes = Array(id.utf8)
        let idCount = UInt32(truncatingIfNeeded: bytes.count)
        if let content { content.withUnsafeBytes { bytes.append(contentsOf: $0) } }
        let contentCount = content.map { UInt32(truncatingIfNeeded: $0.byteCount) }
        var (textStart, textEnd) = (noText, noText)
        switch text {
        case nil: break
        case .inContent(let start, let end):
            if let contentCount, start <= end, end <= contentCount { (textStart, textEnd) = (start, end) }
        case .outside(let string):
            let offset = bytes.count - Int(idCount)
            bytes.append(contentsOf: string.utf8)
            (textStart, textEnd) = (UInt32(truncatingIfNeeded: offset), UInt32(truncatingIfNeeded: bytes.count - Int(idCount)))
        }
        let hash = bytes.withUnsafeBytes { Self.hash(UnsafeRawBufferPointer(rebasing: $0[..<Int(idCount)])) }
        guard !bytes.isEmpty || contentCount != nil || textStart != noText else {
            return Item(storage: nil, base: 0, idCount: 0, contentCount: noContent, textStart: noText, textEnd: noText,
                        idHash: hash)
        }
        let arena = bytes.withUnsafeBytes { ByteArena.holding($0) }
        return Item(storage: arena, base: 0, idCount: idCount, contentCount: contentCount ?? noContent,
                    textStart: textStart, textEnd: textEnd, idHash: hash)
    }

    /// The address of the item's arena (0: none), read without a retain.
    @inlinable @inline(__always)
    var arenaAddress: UInt {
        guard let object = storage?.storage else { return 0 }
        return UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque())
    }

    var arena: ByteArena? { storage }

    /// How many bytes of its arena the item uses (id, content and a text
    /// stored after it).
    @inlinable @inline(__always)
    var arenaBytes: Int {
        let content = contentCount == Self.noContent ? 0 : Int(contentCount)
        return Int(idCount) + (textStart == Self.noText ? content : Swift.max(content, Int(textEnd)))
    }

    /// The same item with its bytes copied into `builder`'s arena (a text
    /// that is a range of the content reads the copy); an item with a text
    /// of its own is returned as it is (its arena holds only it).
    /// - Complexity: O(bytes of the id and content)
    public func rebased(into builder: inout ByteArena.Builder) -> Item {
        guard let storage, !hasText || (contentCount != Self.noContent && textEnd <= contentCount) else { return self }
        let length = Int(idCount) + (contentCount == Self.noContent ? 0 : Int(contentCount))
        return storage.withBytes(Int(base), length) { bytes in
            var item = self
            (item.storage, item.base) = builder.write(bytes)
            return item
        }
    }
}
