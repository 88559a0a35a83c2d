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
        /// When the pass started, and (written with `result`) how long it
        /// ran: the debug log's figures.
        let started = DispatchTime.now().uptimeNanoseconds
        private(set) var passNanoseconds: UInt64 = 0

        init(source: String, request: SearchPlan, stop: SearchStop) {
            self.source = source
            self.request = request
            self.stop = stop
        }

        /// Runs `setSearch` on `copy` on one of `PassThreads`, then `then`.
        func start(_ copy: DataSource, settings: SearchSettings, then: (@Sendable () -> Void)?) {
            PassThreads.shared.run { [self] in
                var exact = copy
                let begun = DispatchTime.now().uptimeNanoseconds
                let update = exact.setSearch(settings)
                passNanoseconds = DispatchTime.now().uptimeNanoseconds - begun
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
