import Dispatch
import Synchronization

/// A value built on a background thread while the daemon waits for the
/// frontend: the lookups a large source needs on its first keystroke (the
/// search index) or its first `edit` (the edit index).
///
/// Building either for a million items takes longer than a frame: done on
/// the first keystroke or the first Enter, that would be the one
/// interaction of a session that misses the frame, and the daemon is idle
/// between an `apply` and that interaction. The first user of the value takes it when it is
/// ready, or waits for the rest of the build, which never costs more than
/// building it then.
///
/// A build belongs to one snapshot: its holder drops it when the snapshot
/// changes (the background work then finishes unused).
final class BackgroundBuild<Value: Sendable>: Sendable {
    private let state = Mutex<Value?>(nil)
    private let ready = DispatchSemaphore(value: 0)
    private let build: @Sendable () -> Value
    /// Set by whoever runs `build`: the background start or a `value()`
    /// call that came first.
    private let claimed = Atomic<Bool>(false)

    /// Starts `build` on a background thread (after the reply being written,
    /// when the server holds starts: see `BackgroundBuilds.holdStarts`).
    init(_ build: @escaping @Sendable () -> Value) {
        self.build = build
        BackgroundBuilds.start { [self] in _ = runIfUnclaimed() }
    }

    private init(deferring build: @escaping @Sendable () -> Value, _: Void) {
        self.build = build
    }

    /// A build that stays unfinished until the first `value()` call runs
    /// it: what tests use to hold a build "still running" deterministically.
    static func onDemand(_ build: @escaping @Sendable () -> Value) -> BackgroundBuild {
        BackgroundBuild(deferring: build, ())
    }

    /// Runs the build unless it has been claimed; whether it ran here.
    private func runIfUnclaimed() -> Bool {
        guard claimed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { return false }
        let value = build()
        state.withLock { $0 = value }
        ready.signal()
        return true
    }

    /// Whether the build has finished.
    var isReady: Bool { state.withLock { $0 != nil } }

    /// The value: built here when the build has not started yet (a start
    /// held until the reply, or an on-demand build), else waited for.
    /// - Complexity: what is left of the build, then O(1).
    func value() -> Value? {
        if let built = state.withLock({ $0 }) { return built }
        if runIfUnclaimed() { return state.withLock { $0 } }
        ready.wait()
        ready.signal()  // later callers do not wait
        return state.withLock { $0 }
    }
}

/// When background builds start. Sources with fewer items build their
/// lookups when first needed (well within a frame at that size): no thread
/// is started for them.
///
/// A build made while a request is handled (an edit's index splice and
/// moved matches, a keystroke's copy) would, started at once, take a core
/// from the request's own remaining work and from the frontend reading the
/// reply. So the server holds starts while it handles a request and
/// releases them once the reply is written.
public enum BackgroundBuilds {
    static let minimumItems = 50_000

    /// Jobs waiting for `releaseHeldStarts`; nil when starts are not held.
    private static let held = Mutex<[@Sendable () -> Void]?>(nil)

    /// Runs `job` on a background thread, now or, while starts are held,
    /// when they are released.
    static func start(_ job: @escaping @Sendable () -> Void) {
        let queued = held.withLock { jobs -> Bool in
            guard jobs != nil else { return false }
            jobs?.append(job)
            return true
        }
        if !queued { DispatchQueue.global(qos: .userInitiated).async(execute: job) }
    }

    /// Holds the start of builds made from now on until `releaseHeldStarts`.
    public static func holdStarts() {
        held.withLock { jobs in if jobs == nil { jobs = [] } }
    }

    /// Starts the held builds and stops holding.
    public static func releaseHeldStarts() {
        let jobs = held.withLock { jobs -> [@Sendable () -> Void] in
            defer { jobs = nil }
            return jobs ?? []
        }
        for job in jobs { DispatchQueue.global(qos: .userInitiated).async(execute: job) }
    }
}
