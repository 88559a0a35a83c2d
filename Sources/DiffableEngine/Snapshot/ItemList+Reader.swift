extension ItemList {
    /// Retain-free reads of a list in any form, for walks over every row
    /// (the diff's in-place walk, its symbol table).
    ///
    /// Reading a mapped or chunked list through `subscript` checks its form
    /// and, for a mapped list, reaches through the `RowMapping` class into
    /// the base list's arrays: the optimizer keeps a retain and a release of
    /// those references per read. Over the mapped rows of a large filtered
    /// section that overhead dominates a diff (an `edit` while a search is
    /// active diffs two mapped snapshots). A reader resolves the form once
    /// and holds plain pointers into the storage, which the list keeps alive
    /// for the duration of `withReader`.
    ///
    /// Reads cost a branch or two more than an array's: one row-map load for
    /// a mapped list, one block lookup (see `chunk(containing:)`) for a
    /// chunked base.
    @usableFromInline
    struct Reader: RandomAccessCollection {
        @usableFromInline typealias Index = Int
        @usableFromInline typealias Indices = Range<Int>

        /// The row map (mapped form), else empty with `isMapped` false.
        @usableFromInline let rows: UnsafeBufferPointer<Int32>
        @usableFromInline let isMapped: Bool
        /// The items of a flat (base) list; nil when it is chunked.
        @usableFromInline let flat: UnsafePointer<Item>?
        /// First item of each chunk, the chunks' start rows and the block
        /// table (chunked base); empty otherwise.
        @usableFromInline let chunkBases: UnsafeBufferPointer<UnsafePointer<Item>>
        @usableFromInline let starts: UnsafeBufferPointer<Int>
        @usableFromInline let blocks: UnsafeBufferPointer<Int32>
        @usableFromInline let count: Int

        @inlinable var startIndex: Int { 0 }
        @inlinable var endIndex: Int { count }
        @inlinable var indices: Range<Int> { 0..<count }
        @inlinable func index(after i: Int) -> Int { i + 1 }
        @inlinable func index(before i: Int) -> Int { i - 1 }

        /// - Complexity: O(1)
        @inlinable
        subscript(position: Int) -> Item {
            unsafeAddress { address(position) }
        }

        /// Where the item at `position` is stored.
        /// - Complexity: O(1)
        @inlinable
        func address(_ position: Int) -> UnsafePointer<Item> {
            precondition(UInt(bitPattern: position) < UInt(bitPattern: count), "ItemList.Reader index out of range")
            let row = isMapped ? Int(rows[position]) : position
            if let flat { return flat + row }
            var k = Int(blocks[row >> ItemList.blockShift])
            while starts[k + 1] <= row { k += 1 }
            return chunkBases[k] + (row - starts[k])
        }
    }

    /// Calls `body` with a reader of the list's items (see `Reader`).
    /// - Complexity: O(chunks) to set up; O(rows) integers when the list
    ///   has deferred rows (they are computed, as any full read would).
    func withReader<R>(_ body: (Reader) throws -> R) rethrows -> R {
        guard let mapping else { return try Self.withReader(of: self, rows: nil, count: count, body) }
        if let rest = mapping.rest {
            return try Self.withReader(of: mapping.base, rows: mapping.rows + rest.rows, count: mapping.count, body)
        }
        return try Self.withReader(of: mapping.base, rows: mapping.rows, count: mapping.count, body)
    }

    /// A reader of `base` (flat or chunked), through `rows` when given.
    private static func withReader<R>(
        of base: ItemList, rows: [Int32]?, count: Int, _ body: (Reader) throws -> R
    ) rethrows -> R {
        try withExtendedLifetime(base) {
            try (rows ?? []).withUnsafeBufferPointer { rowBuffer in
                if !base.chunked {
                    return try base.flat.withUnsafeBufferPointer { items in
                        try body(Reader(rows: rowBuffer, isMapped: rows != nil, flat: items.baseAddress,
                                        chunkBases: .init(start: nil, count: 0), starts: .init(start: nil, count: 0),
                                        blocks: .init(start: nil, count: 0), count: count))
                    }
                }
                // Chunk storage stays put while `base` is alive and unchanged.
                let bases = base.chunks.map { $0.withUnsafeBufferPointer { $0.baseAddress.unsafelyUnwrapped } }
                return try bases.withUnsafeBufferPointer { bases in
                    try base.starts.withUnsafeBufferPointer { starts in
                        try base.blocks.withUnsafeBufferPointer { blocks in
                            try body(Reader(rows: rowBuffer, isMapped: rows != nil, flat: nil, chunkBases: bases,
                                            starts: starts, blocks: blocks, count: count))
                        }
                    }
                }
            }
        }
    }
}

/// Items that can say where each one is stored, so that a walk over two
/// lists sharing storage (the sections of two snapshots an edit derived
/// one from the other, or two searches of one snapshot) recognizes the same
/// item by its address without loading it.
protocol ItemAddressing: RandomAccessCollection<Item> where Index == Int {
    /// Where the item at `position` (in `0..<count`) is stored.
    func address(_ position: Int) -> UnsafePointer<Item>
}

extension ItemList.Reader: ItemAddressing {}

extension UnsafeBufferPointer: ItemAddressing where Element == Item {
    @inlinable
    func address(_ position: Int) -> UnsafePointer<Item> {
        precondition(UInt(bitPattern: position) < UInt(bitPattern: count), "item index out of range")
        return baseAddress.unsafelyUnwrapped + position
    }
}

extension ItemList {
    /// The row of the item `id`, or nil. Reads each row's stored hash and,
    /// on a match, its id's bytes: no string is made per row.
    /// - Complexity: O(count)
    public func firstIndex(ofID id: String) -> Int? {
        let hash = Item.hash(id)
        var id = id
        return id.withUTF8 { utf8 in
            let bytes = UnsafeRawBufferPointer(utf8)
            return withReader { reader in
                for row in 0..<reader.count {
                    let item = reader.address(row)
                    if item.pointee.idHash == hash, item.pointee.hasID(bytes: bytes) { return row }
                }
                return nil
            }
        }
    }

    /// Calls `body` with the id bytes of each row of `rows`, in order (each
    /// valid only during its call): a walk over many ids that makes no
    /// string and no copy of an item.
    /// - Complexity: O(rows + bytes of their ids)
    public func forEachIDBytes(in rows: Range<Int>, _ body: (UnsafeRawBufferPointer) -> Void) {
        withReader { reader in
            for row in rows.clamped(to: 0..<reader.count) { reader.address(row).pointee.withIDBytes(body) }
        }
    }
}
