import Synchronization

/// A signal that stops a running search early: the scan of a keystroke
/// whose answer nobody will read any more (a progressive search's exact
/// pass, overtaken by the next keystroke) returns at its next check
/// instead of burning both cores. A stopped search's result is
/// incomplete: whoever stops it discards it.
///
/// Carried by `SearchQuery.stop`; it is not part of what a query means, so
/// any two signals compare equal.
public final class SearchStop: Equatable, Sendable {
    private let flag = Atomic<Bool>(false)

    public init() {}

    /// Asks every scan carrying this signal to stop.
    public func stop() { flag.store(true, ordering: .relaxed) }

    /// Whether `stop()` was called.
    public var isStopped: Bool { flag.load(ordering: .relaxed) }

    public static func == (lhs: SearchStop, rhs: SearchStop) -> Bool { true }
}
