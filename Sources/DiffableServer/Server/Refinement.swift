import Dispatch
import DiffableEngine
import DiffableProtocol

/// What a progressive `search` leaves between requests: its plan and the
/// exact pass still running (`../Methods/Search+Progressive.swift` starts,
/// settles and sends it). The server holds it as state (`refinement`).
extension Server {
    /// A `search` request checked against the current state: ready to run.
    struct SearchPlan {
        var source: DataSource
        var settings: SearchSettings
        var form: DiffForm
        var highlightLimit: Int
        var viewport: Viewport??
        /// Answer within the frame budget, partially if need be
        /// (`Search+Progressive.swift`).
        var progressive: Bool
    }

    /// The exact pass of a search answered partially.
    final class Refinement: @unchecked Sendable {
        let source: String
        let request: SearchPlan
        let stop: SearchStop
        private let done = DispatchSemaphore(value: 0)
        /// Written once by the worker before `done` is signalled: the copy
        /// with the search set, and its update from the source as it was.
        private var result: (source: DataSource, update: DataSource.Update)?

        init(source: String, request: SearchPlan, stop: SearchStop) {
            self.source = source
            self.request = request
            self.stop = stop
        }

        /// Runs `setSearch` on `copy` on a worker thread, then `then`.
        func start(_ copy: DataSource, settings: SearchSettings, then: (@Sendable () -> Void)?) {
            DispatchQueue.global(qos: .userInitiated).async { [self] in
                var exact = copy
                let update = exact.setSearch(settings)
                result = (exact, update)
                done.signal()
                then?()
            }
        }

        /// The exact source, waiting up to `timeout` seconds (nil: as long as
        /// it takes); nil when not done by then.
        func value(waiting timeout: Double?) -> (source: DataSource, update: DataSource.Update)? {
            let finished: Bool
            if let timeout {
                finished = done.wait(timeout: .now() + timeout) == .success
            } else {
                done.wait()
                finished = true
            }
            guard finished else { return nil }
            done.signal()  // later calls do not wait
            return result
        }
    }
}
