/// Masks resumed where a text stops repeating the one before it.
///
/// A text's masks and word pairs are `or`s over its bytes, and the state
/// after a byte depends only on the bytes up to it. Lists of paths come
/// grouped by folder (`git ls-files`, `find`, `fd`), so a path repeats most
/// of the one before it (`protocol/benchmarks.md` measures how much):
/// keeping the state after every byte of the last text, a text's summary
/// starts after the prefix it shares with it, found eight bytes at a time.
/// A list in no such order pays a short comparison per text.
extension BonusMasks {
    struct PrefixStates {
        /// The summary's state after a byte.
        struct State {
            var reached: UInt64
            var whiteAndPairs: UInt64
            var wordPairs: UInt64
            var salted: UInt64
        }

        /// States are kept for a text's first `keptBytes` bytes at most (a
        /// path is shorter), so that one long text does not grow them by
        /// 32 bytes a byte; a longer text resumes within them.
        static let keptBytes = 4096

        /// The state after each byte of the last text summarized (its first
        /// `keptBytes`).
        private(set) var states = UnsafeMutablePointer<State>.allocate(capacity: 256)
        private var capacity = 256
        /// The last text summarized: its folded bytes, its class bytes, and
        /// how many of its states are kept (none before the first).
        private var units: UnsafePointer<UInt8>?
        private var classes: UnsafePointer<UInt8>?
        private var count = 0

        /// How many first bytes the text of `units` and `classes` (`n` bytes
        /// summarized) shares with the last one, in both, within the states
        /// kept: the states of those bytes are its own. Makes room for the
        /// states of its first `min(n, keptBytes)` bytes and makes this text
        /// the last.
        /// - Complexity: O(the shared bytes)
        mutating func take(units: UnsafeBufferPointer<UInt8>, classes: UnsafeBufferPointer<UInt8>, count n: Int) -> Int {
            var shared = 0
            if let lastUnits = self.units, let lastClasses = self.classes,
               let unitBytes = units.baseAddress, let classBytes = classes.baseAddress {
                let limit = min(n, count, Self.keptBytes)
                shared = ByteScan.sharedPrefix(lastUnits, unitBytes, limit)
                if classBytes != unitBytes || lastClasses != lastUnits {
                    shared = ByteScan.sharedPrefix(lastClasses, classBytes, shared)
                }
            }
            let kept = min(n, Self.keptBytes)
            if kept > capacity {
                let grown = min(max(kept, capacity &* 2), Self.keptBytes)
                let larger = UnsafeMutablePointer<State>.allocate(capacity: grown)
                larger.initialize(from: states, count: shared)
                states.deallocate()
                states = larger
                capacity = grown
            }
            self.units = units.baseAddress
            self.classes = classes.baseAddress
            count = kept
            return shared
        }

        /// Frees the states.
        func deallocate() { states.deallocate() }
    }
}
