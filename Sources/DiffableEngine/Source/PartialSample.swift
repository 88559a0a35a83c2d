import Synchronization

/// The texts a progressive search's partial answers rank
/// (`DataSource.setSearchPartially`), with their index, kept for the
/// keystrokes of one snapshot: building the index of a sample is most of a
/// partial answer's cost, and the sample hardly changes from key to key.
///
/// One per `SearchCache` (a new snapshot or another set of fields starts a
/// new one), shared by the source's copies; only the thread answering
/// requests reads or replaces it.
final class PartialSampleMemo: Sendable {
    /// A sample of one section: text `k` of `index` is row `rows[k]`'s.
    struct Sample: Sendable {
        var section: Int
        /// The section's shortest texts are in it (taken from the search
        /// index, which a first keystroke may not have yet).
        var hasShortest: Bool
        /// The rows chosen without regard to any query (shortest, evenly
        /// spaced), ascending, and the index of their texts.
        var base: [Int]
        var baseIndex: SearchIndex
        /// `base`, then rows earlier answers showed, in the order added.
        var rows: [Int]
        var rowSet: Set<Int>
        var index: SearchIndex
    }

    private let kept = Mutex<Sample?>(nil)
    /// A sample with the shortest texts is being made in the background.
    private let upgrading = Atomic<Bool>(false)

    init() {}

    /// The sample kept for section `section`, if any.
    func sample(section: Int) -> Sample? {
        kept.withLock { $0?.section == section ? $0 : nil }
    }

    func keep(_ sample: Sample) {
        kept.withLock { $0 = sample }
    }

    /// Whether the caller is the one to make the sample again with the
    /// shortest texts (no one else is).
    func beginUpgrade() -> Bool {
        upgrading.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
    }

    /// Keeps the sample made by the one `beginUpgrade` chose.
    func finishUpgrade(_ sample: Sample) {
        keep(sample)
        upgrading.store(false, ordering: .releasing)
    }
}

extension PartialSampleMemo.Sample {
    /// A sample of `base` (ascending) whose texts are `texts`.
    /// - Complexity: O(total UTF-8 length of the texts)
    init(section: Int, hasShortest: Bool, base: [Int], texts: [String?]) {
        self.section = section
        self.hasShortest = hasShortest
        self.base = base
        self.baseIndex = SearchIndex(texts: texts)
        self.rows = base
        self.rowSet = Set(base)
        self.index = baseIndex
    }

    /// This sample with `extra` rows (none of them in it) added at the end,
    /// their texts read by `text`; past `limit` rows, the base rows and
    /// `extra` only.
    /// - Complexity: amortized O(extra texts' UTF-8 length), or O(base
    ///   index) when the limit is passed.
    func adding(_ extra: [Int], limit: Int, text: (Int) -> String?) -> Self {
        var grown = self
        if rows.count + extra.count > limit {
            grown.rows = base
            grown.rowSet = Set(base)
            grown.index = baseIndex
        }
        let added = extra.filter { !grown.rowSet.contains($0) }
        grown.rows += added
        grown.rowSet.formUnion(added)
        grown.index.append(contentsOf: added.map(text))
        return grown
    }
}
