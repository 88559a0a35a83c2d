import Dispatch
import Synchronization

/// A value built on a background thread while the daemon waits for the
/// frontend: the lookups a large source needs on its first keystroke (the
/// search index) or its first `edit` (the edit index).
///
/// Building either for a million items takes 150–400 ms: done on the
/// first keystroke or the first Enter, that is the one interaction of a
/// session that misses the frame, and the daemon is idle between an `apply`
/// and that interaction. The first user of the value takes it when it is
/// ready, or waits for the rest of the build, which never costs more than
/// building it then.
///
/// A build belongs to one snapshot: its holder drops it when the snapshot
/// changes (the background work then finishes unused).
final class BackgroundBuild<Value: Sendable>: Sendable {
    private let state = Mutex<Value?>(nil)
    private let ready = DispatchSemaphore(value: 0)
    /// Set for a build that runs on the first `value()` call instead.
    private let onDemand: (@Sendable () -> Value)?

    /// Starts `build` on a background thread.
    init(_ build: @escaping @Sendable () -> Value) {
        onDemand = nil
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            let value = build()
            state.withLock { $0 = value }
            ready.signal()
        }
    }

    private init(deferring build: @escaping @Sendable () -> Value, _: Void) {
        onDemand = build
    }

    /// A build that stays unfinished until the first `value()` call runs
    /// it: what tests use to hold a build "still running" deterministically.
    static func onDemand(_ build: @escaping @Sendable () -> Value) -> BackgroundBuild {
        BackgroundBuild(deferring: build, ())
    }

    /// Whether the build has finished.
    var isReady: Bool { state.withLock { $0 != nil } }

    /// The value, waiting for the build to finish (never nil once the
    /// build has signalled; callers build it themselves otherwise).
    /// - Complexity: what is left of the build, then O(1).
    func value() -> Value? {
        if let onDemand {
            return state.withLock { state in
                if state == nil { state = onDemand() }
                return state
            }
        }
        if let built = state.withLock({ $0 }) { return built }
        ready.wait()
        ready.signal()  // later callers do not wait
        return state.withLock { $0 }
    }
}

/// Sources with fewer items build their lookups when first needed (a few
/// ms at most): no thread is started for them.
enum BackgroundBuilds {
    static let minimumItems = 50_000
}
