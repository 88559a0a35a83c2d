import Dispatch
import Synchronization

/// A search index built on a background thread, for a source whose
/// frontend has a search field but nothing typed in it yet.
///
/// Building the index of a million texts takes ~150 ms (folding and copying
/// every text): done on the first keystroke, that is the one keystroke of a
/// session that misses the frame. The daemon is idle between an `apply` and
/// the first keystroke, so a source with search settings (an empty query
/// declares the field) starts this build when its index is dropped; the
/// first search takes the index when it is ready, or waits for the rest of
/// the build, which never costs more than building it then.
///
/// A prebuild belongs to one snapshot: it is dropped with the
/// `SearchCache` holding it (the background work then finishes unused).
final class IndexPrebuild: Sendable {
    /// Snapshots with fewer items build their index on the first keystroke,
    /// as before (a few ms at most): no thread is started for them.
    static let minimumItems = 50_000

    private let state = Mutex<SearchIndex?>(nil)
    private let ready = DispatchSemaphore(value: 0)

    /// Starts building the index of `snapshot`.
    init(snapshot: Snapshot) {
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            let index = SearchIndex(snapshot: snapshot)
            state.withLock { $0 = index }
            ready.signal()
        }
    }

    /// Whether the build has finished (read by tests).
    var isReady: Bool { state.withLock { $0 != nil } }

    /// The index, waiting for the build to finish.
    /// - Complexity: what is left of the build, then O(1).
    func index() -> SearchIndex {
        if let built = state.withLock({ $0 }) { return built }
        ready.wait()
        ready.signal()  // later callers do not wait
        return state.withLock { $0 } ?? SearchIndex()
    }
}
