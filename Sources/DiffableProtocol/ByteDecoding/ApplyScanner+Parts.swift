import DiffableEngine

/// Reading a large items array in parts, one per core.
///
/// Reading the items is most of a large `apply`, and one thread reads
/// them one after the other. The validator, which reads
/// every byte before anything is decoded, notes some array elements on its
/// way (`JSONValidator.splitHints`), so a decoder can start in the middle
/// of an array without guessing where strings begin. Each part is read by
/// the same code as a sequential read, into its own items and id hashes,
/// which are then joined in order: the result is exactly the sequential
/// one. Anything a part cannot vouch for (nested items, a part that ends
/// somewhere else than where the next begins, any failure) makes the caller
/// read the array again sequentially, which then reports what is wrong.
extension ApplyScanner {
    /// Parts a large array is read in: two, as the scans use two threads.
    package static let parts = 2

    /// Where the parts of the array whose `[` is at `array` start, after the
    /// first part (which starts at its first element): hints of that array,
    /// chosen to split it evenly. Empty when it has too few hints to split.
    /// - Complexity: O(hints)
    package static func partStarts(_ hints: [JSONValidator.SplitHint], array: Int) -> [Int] {
        let own = hints.lazy.filter { $0.array == array }.map(\.element)
        let elements = Array(own)
        guard elements.count >= parts else { return [] }
        return (1..<parts).map { elements[elements.count * $0 / parts] }
    }

    /// Reads the items of the array whose `[` was consumed, in parts that
    /// start at `starts` (ascending element offsets): the items of each
    /// part, in order, exactly what a sequential `decodeItems` would read.
    /// Nil when
    /// the parts do not give that answer for certain: the caller then reads
    /// sequentially.
    /// - Complexity: O(bytes of the array / parts) on each of `parts` threads.
    /// `recycler`: the section's previous items; each part after the first
    /// expects its first item at the same fraction of them. `released`: an
    /// empty reader's runs; each part releases its own, appended there when
    /// the parts are the answer, else written again before returning nil.
    package static func decodeItemsInParts(
        _ s: inout ByteScanner, starts: [Int], arenas: inout ByteArena.Writer, recycler: ItemRecycler,
        released: inout ReleasedRuns, checkpoint: (ByteScanner) -> Bool
    ) -> [[Item]]? {
        let bounds = [s.pos] + starts
        guard zip(bounds, bounds.dropFirst()).allSatisfy({ $0 < $1 }) else { return nil }
        let input = InputBox(input: s.input, end: s.end, recycler: recycler, released: released)
        let results = withoutActuallyEscaping(checkpoint) { checkpoint in
            let first = CheckpointBox(checkpoint)
            return Parallel.map(bounds.count, placeholder: PartResult(released: .keeping)) { k in
                var scanner = ByteScanner(input.input, range: bounds[k] ..< input.end)
                var part = PartResult(released: input.released)
                // A re-sent list is about as long as the one held: no
                // regrowth (each a copy of the items so far) on the way.
                part.items.reserveCapacity(input.recycler.count / bounds.count + input.recycler.count / 64)
                let stop = k + 1 < bounds.count ? bounds[k + 1] : Int.max
                // Only the first part reports progress (from one thread).
                var recycler = input.recycler.starting(near: input.recycler.count * k / bounds.count)
                part.ok = decodeItems(&scanner, arenas: &part.arenas, into: &part.items, nesting: &part.nesting,
                                      parent: -1, stop: stop, recycler: &recycler, released: &part.released,
                                      checkpoint: k == 0 ? first.checkpoint : { _ in true })
                part.end = scanner.pos
                // A part other than the last must end where the next starts.
                if stop != Int.max && scanner.pos != stop { part.ok = false }
                return part
            }
        }
        guard results.allSatisfy({ $0.ok && $0.nesting == nil }), let last = results.last else {
            for var part in results { part.released.restore(from: part.items) }
            return nil
        }
        var offset = 0
        for part in results {
            arenas.merge(part.arenas)
            released.append(part.released, itemOffset: offset)
            offset += part.items.count
        }
        s.pos = last.end
        return results.map(\.items)
    }
}

/// What one part of an array was read into.
private struct PartResult {
    package var released: ReleasedRuns
    package var items: [Item] = []
    package var arenas = ByteArena.Writer()
    package var nesting: ApplyScanner.Nesting?
    package var ok = false
    package var end = 0
}

/// The request's bytes and the section's previous items, read by every
/// part's thread (never written).
private struct InputBox: @unchecked Sendable {
    package let input: UnsafeBufferPointer<UInt8>
    package let end: Int
    package let recycler: ItemRecycler
    /// An empty reader's runs (each part releases its own bytes).
    package let released: ReleasedRuns
}

/// The progress callback, handed to the one part that calls it.
private struct CheckpointBox: @unchecked Sendable {
    package let checkpoint: (ByteScanner) -> Bool
    package init(_ checkpoint: @escaping (ByteScanner) -> Bool) { self.checkpoint = checkpoint }
}
