import Synchronization

/// An array of plain values whose copies share one buffer for as long as
/// they differ only by what was appended after their end.
///
/// A `SearchIndex` is held by more than its source: the deferred ranking
/// of the visible rows, a match set rooted at the index, a background
/// splice. With `Array` buffers, appending a batch of texts to an index
/// that any of them still holds copies every buffer first (copy on write),
/// so a list streaming in paid for its whole length on every batch.
/// Here, each copy sees only its own prefix `0..<count` of the buffer, and
/// elements below the longest copy's end are never written again while
/// the buffer is shared. So one copy may append past that end in place:
/// the one whose end it is (the buffer's `claimed` mark, moved with a
/// compare-and-exchange, so two copies on two threads never both extend
/// it). Any other change to a shared buffer copies it first, as `Array`
/// does.
///
/// - Complexity: appending is amortized O(appended elements) whoever
///   shares the buffer; other changes are O(count) when shared, else as
///   `Array`'s.
struct PrefixSharingArray<Element: BitwiseCopyable & Sendable>: @unchecked Sendable {
    private var storage: PrefixStorage<Element>
    /// The number of elements of this copy.
    private(set) var count: Int

    init() {
        storage = PrefixStorage(capacity: 0)
        count = 0
    }

    var capacity: Int { storage.capacity }

    /// Makes room for `extra` elements past `count` that this copy may
    /// write, moving the buffer's end mark to `count + extra`. Shares the
    /// buffer when this copy's end is its end and the room is there;
    /// otherwise moves to a buffer of at least twice the capacity.
    private mutating func claimTail(_ extra: Int) {
        let needed = count + extra
        if isKnownUniquelyReferenced(&storage) {
            if needed <= storage.capacity {
                storage.claimed.store(needed, ordering: .relaxed)
                return
            }
        } else if needed <= storage.capacity,
                  storage.claimed.compareExchange(expected: count, desired: needed, ordering: .relaxed).exchanged {
            return
        }
        move(capacity: Swift.max(needed, 2 * storage.capacity), claimed: needed)
    }

    /// Copies this copy's elements to a new buffer of `capacity` that it
    /// alone uses, with `claimed` of it taken.
    private mutating func move(capacity: Int, claimed: Int) {
        let moved = PrefixStorage<Element>(capacity: capacity)
        moved.base.initialize(from: storage.base, count: count)
        moved.claimed.store(claimed, ordering: .relaxed)
        storage = moved
    }

    /// Gives back the room claimed past `count`: this copy's own claim up
    /// to `end`, made in the same mutation, so no other copy holds any of
    /// it.
    private func releaseTail(claimedUpTo end: Int) {
        _ = storage.claimed.compareExchange(expected: end, desired: count, ordering: .relaxed)
    }

    /// Makes every element writable: a buffer only this copy uses.
    private mutating func makeUnique() {
        if isKnownUniquelyReferenced(&storage) {
            storage.claimed.store(count, ordering: .relaxed)
            return
        }
        move(capacity: Swift.max(count, 1), claimed: count)
    }

    /// Ensures room for `minimumCapacity` elements, so that appends up to
    /// it do not move the buffer; when it must move, the new one has at
    /// least twice the capacity (a list appended in batches is not copied
    /// on every batch).
    mutating func reserveCapacity(_ minimumCapacity: Int) {
        guard minimumCapacity > count else { return }
        if minimumCapacity <= storage.capacity
            && (isKnownUniquelyReferenced(&storage) || storage.claimed.load(ordering: .relaxed) == count) { return }
        move(capacity: Swift.max(minimumCapacity, 2 * storage.capacity), claimed: count)
    }

    /// Appends up to `maximum` elements written by `body` into the room
    /// after the last one; `body` returns how many it wrote (at most
    /// `maximum`), and only those are kept. `body` runs even when
    /// `maximum` is 0.
    /// - Complexity: amortized O(`maximum`), plus `body`.
    mutating func appendUninitialized(maximum: Int, _ body: (UnsafeMutableBufferPointer<Element>) -> Int) {
        if maximum > 0 { claimTail(maximum) }
        let written = body(UnsafeMutableBufferPointer(start: storage.base + count, count: maximum))
        let end = count + maximum
        count += Swift.min(Swift.max(written, 0), maximum)
        if count < end { releaseTail(claimedUpTo: end) }
    }

    mutating func append(_ element: Element) {
        claimTail(1)
        (storage.base + count).initialize(to: element)
        count += 1
    }

    mutating func append<S: Sequence>(contentsOf elements: S) where S.Element == Element {
        let copied: Void? = elements.withContiguousStorageIfAvailable { source in
            guard let from = source.baseAddress, !source.isEmpty else { return }
            appendUninitialized(maximum: source.count) { room in
                room.baseAddress?.initialize(from: from, count: source.count)
                return source.count
            }
        }
        if copied != nil { return }
        var iterator = elements.makeIterator()
        let expected = elements.underestimatedCount
        appendUninitialized(maximum: expected) { room in
            for k in 0..<expected {
                guard let next = iterator.next() else { return k }
                room[k] = next
            }
            return expected
        }
        while let next = iterator.next() { append(next) }
    }

    /// Replaces `range` with `elements`; a tail append shares the buffer.
    /// - Complexity: O(count + elements) unless it appends.
    mutating func replaceSubrange<C: Collection>(_ range: Range<Int>, with elements: C) where C.Element == Element {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "range out of bounds")
        if range.lowerBound == count {
            append(contentsOf: elements)
            return
        }
        var result = PrefixSharingArray()
        result.reserveCapacity(count - range.count + elements.count)
        withUnsafeBufferPointer { all in
            result.append(contentsOf: all[..<range.lowerBound])
            result.append(contentsOf: elements)
            result.append(contentsOf: all[range.upperBound...])
        }
        self = result
    }

    /// Drops the elements from `tail.lowerBound` on (the buffer keeps them
    /// for the copies that still hold them).
    mutating func removeSubrange(_ tail: PartialRangeFrom<Int>) {
        precondition(tail.lowerBound >= 0 && tail.lowerBound <= count, "range out of bounds")
        count = tail.lowerBound
        // Another copy may still hold the dropped elements: the room is
        // given back only when none does.
        if isKnownUniquelyReferenced(&storage) { storage.claimed.store(count, ordering: .relaxed) }
    }

    func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: storage.base, count: count))
    }

    subscript(position: Int) -> Element {
        get {
            precondition(position >= 0 && position < count, "index out of range")
            return storage.base[position]
        }
        set {
            precondition(position >= 0 && position < count, "index out of range")
            makeUnique()
            storage.base[position] = newValue
        }
    }

    func withContiguousStorageIfAvailable<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R? {
        try body(UnsafeBufferPointer(start: storage.base, count: count))
    }
}

extension PrefixSharingArray: RandomAccessCollection {
    var startIndex: Int { 0 }
    var endIndex: Int { count }
}

extension PrefixSharingArray: Equatable where Element: Equatable {
    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.count == rhs.count && lhs.elementsEqual(rhs)
    }
}

/// The buffer of `PrefixSharingArray`: `capacity` elements, of which the
/// first `claimed` were written by some copy.
final class PrefixStorage<Element: BitwiseCopyable>: @unchecked Sendable {
    let base: UnsafeMutablePointer<Element>
    let capacity: Int
    /// The end of the longest copy's elements: only a copy whose `count`
    /// equals it may write past it.
    let claimed = Atomic<Int>(0)

    init(capacity: Int) {
        self.capacity = capacity
        base = .allocate(capacity: Swift.max(capacity, 1))
        LargeBuffers.preferHugePages(UnsafeMutableRawPointer(base), bytes: capacity &* MemoryLayout<Element>.stride)
    }

    deinit { base.deallocate() }
}
