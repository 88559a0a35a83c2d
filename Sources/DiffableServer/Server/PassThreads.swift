import Dispatch
import Foundation
import Synchronization

/// Threads for progressive searches' exact passes (`Refinement`): started
/// when every one is busy, then kept for the daemon's life.
///
/// Not a dispatch queue: a pass dropped by the next key may still be
/// waiting for the index being built in the background, and on Linux the
/// queues' few threads are not replaced at once while some block, so a
/// newer key's pass (and the build's own second thread) would queue behind
/// the blocked ones. Not a thread per pass either: a thread that called
/// `DispatchQueue.concurrentPerform` (every scan of two halves does) and
/// then exits has libdispatch free its per-thread cache of continuations
/// in a way that corrupts the heap (valgrind: a read of freed memory in
/// `_dispatch_cache_cleanup` at thread exit; glibc then aborts in
/// `tcache_thread_shutdown`). These threads never exit.
///
/// At human typing speed a handful of passes overlap at most (keys come
/// tens of milliseconds apart, and a dropped pass ends at its scan's next
/// check, or when the index it waits for is built); that many threads are
/// started, each with `stackSize` of address space.
final class PassThreads: Sendable {
    static let shared = PassThreads()

    private struct State {
        var jobs: [@Sendable () -> Void] = []
        /// Threads waiting for a job that no job has been promised to.
        var idle = 0
    }
    private let state = Mutex(State())
    /// Signalled once per job: a thread that takes it runs one job.
    private let queued = DispatchSemaphore(value: 0)

    /// The call stack of a pass: engine code only, which never recurses on
    /// its input; fixed, so that a small `ulimit -s` does not shrink it.
    static let stackSize = 8 << 20

    /// Runs `job` on an idle thread, or on a new one when none is idle.
    func run(_ job: @escaping @Sendable () -> Void) {
        let start = state.withLock { state -> Bool in
            state.jobs.append(job)
            guard state.idle > 0 else { return true }
            state.idle -= 1
            return false
        }
        if start {
            let thread = Thread { [self] in serve() }
            thread.stackSize = Self.stackSize
            thread.start()
        }
        queued.signal()
    }

    /// A thread's life: one job per signal, in the order they came.
    private func serve() {
        while true {
            queued.wait()
            let job = state.withLock { state -> (@Sendable () -> Void)? in
                state.jobs.isEmpty ? nil : state.jobs.removeFirst()
            }
            job?()
            state.withLock { $0.idle += 1 }
        }
    }
}
