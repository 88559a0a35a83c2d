import Synchronization

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
/// The rows after the first ones may be *deferred*: known in number, and
/// computed by a closure on the first read that reaches them (a ranked
/// search with a viewport ranks only the rows the window can show; see
/// `DeferredRows`). Reads before that point never run it.
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
    /// The first rows of `base`, each in `0..<base.count`.
    @usableFromInline let rows: [Int32]
    /// Number of rows, deferred ones included.
    @usableFromInline let count: Int
    /// The rows after `rows` (nil when `rows` are all of them).
    @usableFromInline let rest: DeferredRows?

    init(base: ItemList, rows: [Int32], rest: DeferredRows? = nil) {
        self.base = base
        self.rows = rows
        self.rest = rest
        count = rows.count + (rest?.count ?? 0)
    }

    /// Row of `base` shown at `i` (`i` in `0..<count`).
    @inlinable
    func row(_ i: Int) -> Int {
        if i < rows.count { return Int(rows[i]) }
        return rest?.row(i - rows.count) ?? 0
    }
}

/// Rows computed once, on first use, by a closure (thread-safe: the first
/// reader computes them under a lock, later readers read them).
public final class DeferredRows: Sendable {
    /// How many rows the closure returns.
    public let count: Int
    private let state: Mutex<(rows: [Int32]?, compute: (@Sendable () -> [Int32])?)>

    /// `compute` must return exactly `count` rows.
    public init(count: Int, compute: @escaping @Sendable () -> [Int32]) {
        self.count = count
        state = Mutex((nil, compute))
    }

    /// Whether the rows have been computed (read by tests: what a request
    /// ranked).
    public var isComputed: Bool { state.withLock { $0.rows != nil } }

    /// All rows (computing them on the first call).
    /// - Complexity: the closure's cost once, then O(1).
    public var rows: [Int32] {
        state.withLock { state in
            if let rows = state.rows { return rows }
            var rows = state.compute?() ?? []
            // A wrong count would break `ItemList.count`: pad or cut, and
            // let debug builds say so.
            assert(rows.count == count, "deferred rows: \(rows.count) computed, \(count) announced")
            if rows.count > count { rows.removeSubrange(count...) }
            while rows.count < count { rows.append(0) }
            state.rows = rows
            state.compute = nil
            return rows
        }
    }

    /// Row `i` (`i` in `0..<count`).
    @usableFromInline
    func row(_ i: Int) -> Int {
        let all = rows
        return all.indices.contains(i) ? Int(all[i]) : 0
    }
}

extension ItemList {
    /// The items of `base` at `rows` minus `offset`, in that order (rows out
    /// of range are left out), sharing `base`'s storage; then, when `rest`
    /// is given, its rows (computed on the first read that reaches them;
    /// they must be in range).
    /// - Complexity: O(rows), integers only (O(rows) item copies when `base`
    ///   is itself mapped).
    init(rows: [Int], offset: Int = 0, of base: ItemList, rest: DeferredRows? = nil) {
        if let inner = base.mapping {
            // Compose instead of stacking maps: reads stay one hop.
            var mapped = rows.compactMap { (0..<inner.count).contains($0 - offset) ? Int32(inner.row($0 - offset)) : nil }
            if let rest { mapped += rest.rows.map { Int32(inner.row(Int($0))) } }
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
        mapping = RowMapping(base: base, rows: mapped, rest: rest)
    }

    /// Whether the list is in mapped form.
    var isMapped: Bool { mapping != nil }

    /// Turns a mapped list into a flat one (no-op in other forms).
    /// - Complexity: O(rows) when mapped, else O(1).
    @inlinable
    mutating func materialize() {
        guard let mapping else { return }
        var items: [Item] = []
        items.reserveCapacity(mapping.count)
        for row in mapping.rows { items.append(mapping.base[Int(row)]) }
        for row in mapping.rest?.rows ?? [] { items.append(mapping.base[Int(row)]) }
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
