extension ItemList: RandomAccessCollection, MutableCollection, RangeReplaceableCollection {
    public typealias Index = Int
    public typealias Indices = Range<Int>

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { count }
    @inlinable public var indices: Range<Int> { 0..<count }
    @inlinable public var isEmpty: Bool { count == 0 }

    /// Reads borrow the item in place (an addressor, like `Array`'s), so
    /// `list[i].id` copies the id only; the pointer stays valid for the access
    /// because `self` keeps the buffer alive and is not mutated meanwhile.
    /// - Complexity: O(1)
    @inlinable
    public subscript(position: Int) -> Item {
        unsafeAddress {
            if let mapping {
                precondition(UInt(bitPattern: position) < UInt(bitPattern: mapping.count), "ItemList index out of range")
                return mapping.base.address(of: mapping.row(position))
            }
            if !chunked {
                precondition(UInt(bitPattern: position) < UInt(bitPattern: flat.count), "ItemList index out of range")
                return flat.withUnsafeBufferPointer { $0.baseAddress.unsafelyUnwrapped + position }
            }
            return chunkedAddress(position)
        }
        set {
            materialize()
            if !chunked {
                flat[position] = newValue
                return
            }
            let k = chunk(containing: position)
            ownChunk(k)
            let offset = chunks[k].startIndex + position - starts[k]
            chunks[k][offset] = newValue
        }
    }

    /// The address of the item at `position` (flat or chunked form), valid
    /// while the list's storage is.
    @inlinable
    func address(of position: Int) -> UnsafePointer<Item> {
        if !chunked {
            precondition(UInt(bitPattern: position) < UInt(bitPattern: flat.count), "ItemList index out of range")
            return flat.withUnsafeBufferPointer { $0.baseAddress.unsafelyUnwrapped + position }
        }
        return chunkedAddress(position)
    }

    @inlinable
    func chunkedAddress(_ position: Int) -> UnsafePointer<Item> {
        precondition(UInt(bitPattern: position) < UInt(bitPattern: count), "ItemList index out of range")
        let k = chunk(containing: position)
        return chunks[k].withUnsafeBufferPointer { $0.baseAddress.unsafelyUnwrapped + (position - starts[k]) }
    }

    @inlinable public func index(after i: Int) -> Int { i + 1 }
    @inlinable public func index(before i: Int) -> Int { i - 1 }
    @inlinable public func index(_ i: Int, offsetBy distance: Int) -> Int { i + distance }
    @inlinable public func distance(from start: Int, to end: Int) -> Int { end - start }

    public struct Iterator: IteratorProtocol {
        @usableFromInline var current: IndexingIterator<ArraySlice<Item>>
        @usableFromInline let chunks: [ArraySlice<Item>]
        @usableFromInline var nextChunk: Int
        /// Mapped form: the rows still to read.
        @usableFromInline let mapping: RowMapping?
        @usableFromInline var position = 0
        @usableFromInline var restRows: [Int32]?

        @inlinable init(current: IndexingIterator<ArraySlice<Item>>, chunks: [ArraySlice<Item>], nextChunk: Int,
                        mapping: RowMapping? = nil) {
            self.current = current
            self.chunks = chunks
            self.nextChunk = nextChunk
            self.mapping = mapping
        }

        @inlinable public mutating func next() -> Item? {
            if let mapping {
                guard position < mapping.count else { return nil }
                defer { position += 1 }
                if position < mapping.rows.count { return mapping.base[Int(mapping.rows[position])] }
                // Deferred rows: computed (or read) once for the whole walk.
                if restRows == nil { restRows = mapping.rest?.rows ?? [] }
                let offset = position - mapping.rows.count
                guard let restRows, restRows.indices.contains(offset) else { return nil }
                return mapping.base[Int(restRows[offset])]
            }
            if let item = current.next() { return item }
            while nextChunk < chunks.count {
                current = chunks[nextChunk].makeIterator()
                nextChunk += 1
                if let item = current.next() { return item }
            }
            return nil
        }
    }

    @inlinable public func makeIterator() -> Iterator {
        if let mapping {
            return Iterator(current: ArraySlice().makeIterator(), chunks: [], nextChunk: 0, mapping: mapping)
        }
        if isChunked {
            return Iterator(current: chunks[0].makeIterator(), chunks: chunks, nextChunk: 1)
        }
        return Iterator(current: flat[...].makeIterator(), chunks: [], nextChunk: 0)
    }

    @inlinable public var underestimatedCount: Int { count }

    public func withContiguousStorageIfAvailable<R>(
        _ body: (UnsafeBufferPointer<Item>) throws -> R
    ) rethrows -> R? {
        if mapping != nil { return nil }
        if isChunked {
            if chunks.count == 1 { return try chunks[0].withContiguousStorageIfAvailable(body) }
            return nil
        }
        return try flat.withContiguousStorageIfAvailable(body)
    }

    /// - Complexity: O(new items + touched chunks' items + chunks); O(count)
    ///   in flat form, like `Array`.
    public mutating func replaceSubrange<C: Collection<Item>>(_ subrange: Range<Int>, with newElements: C) {
        var ignored: [Placement]? = nil
        replace(subrange, with: newElements, report: &ignored)
    }

    public mutating func reserveCapacity(_ n: Int) {
        materialize()
        if !isChunked { flat.reserveCapacity(n) }
    }

    public mutating func append(_ item: Item) {
        materialize()
        if isChunked {
            let last = chunks.count - 1
            ownChunk(last)
            chunks[last].append(item)
            starts[starts.count - 1] += 1
            if (starts[starts.count - 1] - 1) >> Self.blockShift == blocks.count {
                blocks.append(Int32(truncatingIfNeeded: last))
            }
            if chunks[last].count > Self.maxChunk {
                var ignored: [Placement]? = nil
                normalize(last, report: &ignored)
            }
        } else {
            flat.append(item)
        }
    }

    public mutating func append<S: Sequence<Item>>(contentsOf items: S) {
        materialize()
        if isChunked {
            replaceSubrange(count..<count, with: Array(items))
        } else {
            flat.append(contentsOf: items)
        }
    }

    public mutating func removeAll(keepingCapacity keepCapacity: Bool = false) {
        self = ItemList()
    }

    // MARK: chunk-aware edits (report where items land)

    /// Replaces `subrange` with `newElements`. When `placements` is not nil,
    /// appends the chunk of every inserted item and of every item that
    /// changed chunk (later entries win; entries may name items this call
    /// removes, so apply removals after them). With reporting on, a flat list that
    /// would exceed `maxChunk` is split first (see `chunkify()`).
    /// - Complexity: O(new items + touched chunks' items + chunks); in flat
    ///   form without reporting O(count), like `Array`.
    mutating func replace<C: Collection<Item>>(
        _ subrange: Range<Int>, with newElements: C, report placements: inout [Placement]?
    ) {
        materialize()
        let lo = subrange.lowerBound, hi = subrange.upperBound
        if !isChunked {
            let grown = flat.count - subrange.count + newElements.count
            if placements == nil || (grown <= Self.maxChunk && flat.count <= Self.maxChunk) {
                flat.replaceSubrange(lo..<hi, with: newElements)
                if placements != nil {
                    for item in newElements { placements?.append((item.itemID, Self.flatChunkID)) }
                }
                return
            }
            if flat.isEmpty {
                chunks = [ArraySlice(newElements)]
                chunked = true
                chunkIDs = [Self.flatChunkID]
                flat = []
                for item in newElements { placements?.append((item.itemID, Self.flatChunkID)) }
                normalize(0, report: &placements)
                return
            }
            let items = flat
            flat = []
            chunks = [items[...]]
            chunked = true
            chunkIDs = [Self.flatChunkID]
            normalize(0, report: &placements)
        }
        let total = count
        let ka = lo < total ? chunk(containing: lo) : chunks.count - 1
        let kb = hi > lo ? chunk(containing: hi - 1) : ka
        if ka == kb {
            ownChunk(ka)
            let base = chunks[ka].startIndex - starts[ka]
            chunks[ka].replaceSubrange(base + lo..<base + hi, with: newElements)
            for item in newElements { placements?.append((item.itemID, chunkIDs[ka])) }
            normalize(ka, report: &placements)
            return
        }
        // Spans several chunks: join them into the first one.
        var joined = chunks[ka]
        for k in ka + 1...kb { joined.append(contentsOf: chunks[k]) }
        let base = joined.startIndex - starts[ka]
        joined.replaceSubrange(base + lo..<base + hi, with: newElements)
        let id = chunkIDs[ka]
        for item in joined { placements?.append((item.itemID, id)) }
        for k in ka...kb { borrowedChunks.remove(chunkIDs[k]) }
        chunks.replaceSubrange(ka...kb, with: CollectionOfOne(joined))
        chunkIDs.replaceSubrange(ka...kb, with: CollectionOfOne(id))
        normalize(ka, report: &placements)
    }

    /// Inserts `items` at `row`, reporting placements (see `replace`).
    /// - Complexity: O(items + chunk + chunks).
    mutating func insert(_ items: [Item], at row: Int, report placements: inout [Placement]?) {
        replace(row..<row, with: items, report: &placements)
    }

    /// Removes the item at `row`, reporting items that changed chunk.
    /// - Complexity: O(chunk + chunks).
    mutating func remove(at row: Int, report placements: inout [Placement]?) -> Item {
        let item = self[row]
        replace(row..<row + 1, with: EmptyCollection(), report: &placements)
        return item
    }

    /// Removes the items `shouldRemove` selects, reporting items that
    /// changed chunk.
    /// - Complexity: O(count) in flat form; O(chunks + items of the chunks
    ///   `chunkMayMatch` does not rule out) in chunked form.
    mutating func removeAll(
        where shouldRemove: (Item) -> Bool,
        inChunks chunkMayMatch: (Int) -> Bool = { _ in true },
        report placements: inout [Placement]?
    ) {
        materialize()
        if !isChunked {
            flat.removeAll(where: shouldRemove)
            return
        }
        for k in chunks.indices where chunkMayMatch(chunkIDs[k]) && chunks[k].contains(where: shouldRemove) {
            ownChunk(k)
            chunks[k].removeAll(where: shouldRemove)
        }
        normalize(0, chunks.count, report: &placements)
    }
}

extension ItemList: Equatable {
    /// Same items in the same order, however they are chunked.
    /// - Complexity: O(count)
    public static func == (lhs: ItemList, rhs: ItemList) -> Bool {
        guard lhs.count == rhs.count else { return false }
        if let a = lhs.mapping, let b = rhs.mapping, a.rest == nil, b.rest == nil, a.base.sharesStorage(with: b.base),
           a.rows == b.rows { return true }
        if !lhs.isChunked && !rhs.isChunked && lhs.mapping == nil && rhs.mapping == nil { return lhs.flat == rhs.flat }
        return lhs.elementsEqual(rhs)
    }
}

extension ItemList: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: Item...) {
        self.init(elements)
    }
}

extension ItemList: CustomStringConvertible {
    public var description: String { Array(self).description }
}
