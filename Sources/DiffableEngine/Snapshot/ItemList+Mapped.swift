/// The mapped form of `ItemList`: some rows of another list, in a given
/// order, without copying their items.
///
/// A search over a million rows may show half of them; materializing that
/// section copies half a million items (a retain of each id and content),
/// and releasing the previous one costs as much again, which is most of a
/// keystroke. A mapped list holds the base list (one reference: the base
/// is the source's full snapshot section, which exists anyway) and the row
/// numbers as `Int32`s.
///
/// Reads (`subscript`, iteration, `count`) cost what they cost on the base
/// plus one integer load. The first mutation *materializes* the list into
/// the flat form (O(rows)), so every mutation keeps its documented cost
/// from then on; the visible snapshots this form is made for are rebuilt,
/// not edited.
@usableFromInline
final class RowMapping: Sendable {
    /// The list the rows point into (never itself mapped).
    @usableFromInline let base: ItemList
    /// Rows of `base`, each in `0..<base.count`.
    @usableFromInline let rows: [Int32]

    init(base: ItemList, rows: [Int32]) {
        self.base = base
        self.rows = rows
    }
}

extension ItemList {
    /// The items of `base` at `rows` minus `offset`, in that order (rows out
    /// of range are left out), sharing `base`'s storage.
    /// - Complexity: O(rows), integers only (O(rows) item copies when `base`
    ///   is itself mapped).
    init(rows: [Int], offset: Int = 0, of base: ItemList) {
        if let inner = base.mapping {
            // Compose instead of stacking maps: reads stay one hop.
            let mapped = rows.compactMap { inner.rows.indices.contains($0 - offset) ? inner.rows[$0 - offset] : nil }
            self.init()
            mapping = RowMapping(base: inner.base, rows: mapped)
            return
        }
        let count = base.count
        var mapped: [Int32] = []
        mapped.reserveCapacity(rows.count)
        for flat in rows {
            let row = flat - offset
            if row >= 0 && row < count { mapped.append(Int32(truncatingIfNeeded: row)) }
        }
        self.init()
        mapping = RowMapping(base: base, rows: mapped)
    }

    /// Whether the list is in mapped form.
    var isMapped: Bool { mapping != nil }

    /// Turns a mapped list into a flat one (no-op in other forms).
    /// - Complexity: O(rows) when mapped, else O(1).
    @inlinable
    mutating func materialize() {
        guard let mapping else { return }
        var items: [Item] = []
        items.reserveCapacity(mapping.rows.count)
        for row in mapping.rows { items.append(mapping.base[Int(row)]) }
        self.mapping = nil
        flat = items
    }

    /// Whether both lists read the same storage in the same form (so equal
    /// row maps over them list equal items).
    /// - Complexity: O(chunks)
    func sharesStorage(with other: ItemList) -> Bool {
        guard chunked == other.chunked, mapping == nil, other.mapping == nil else { return false }
        if chunked {
            guard chunks.count == other.chunks.count else { return false }
            for k in chunks.indices {
                let same = chunks[k].withUnsafeBufferPointer { a in
                    other.chunks[k].withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress && a.count == b.count }
                }
                if !same { return false }
            }
            return true
        }
        return flat.withUnsafeBufferPointer { a in
            other.flat.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress && a.count == b.count }
        }
    }
}
