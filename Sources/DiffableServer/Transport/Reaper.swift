import DiffableEngine
import Foundation
import DiffableProtocol

/// Frees replaced snapshots and source states on a background thread,
/// after their response is sent, so that no request waits for a million
/// items or an earlier list's search index to be released.
///
/// Returning freed memory to the system (`malloc_trim`) waits until the
/// daemon has been idle for `quietPeriod`: trimming walks the whole heap
/// under the allocator's lock, and pages given back must be faulted in and
/// zeroed again by the next large request. A client that sends applies back
/// to back reuses the freed memory instead; one that stops gets it trimmed
/// a moment later.
///
/// Except after a request whose pages went back while it was read (one
/// of `LazyRequest.minimumReleasedBodySize` or more, a million items): its
/// snapshot is freed and the heap trimmed at once.
/// Such a request leaves tens of MB of freed blocks in the heaps of the
/// threads that read it; a client re-sending a million items back to back
/// would see the daemon grow by them apply after apply. Trimming at once
/// keeps each apply's peak near its own size (the next apply faults its
/// memory in again, a small part of its time).
///
/// And except when a request freed a shared arena itself
/// (`ByteArena.freedSharedBytes`, less what the reaper's own batches
/// freed): edits that rewrite rows free the arenas an `apply` read them into
/// once their last row is rewritten, in the middle of a stream of small
/// requests that never leaves the daemon idle. Trimmed at once, a source
/// edited without end holds its rows once, not once more per arena they
/// left.
final class Reaper: @unchecked Sendable {
    private let condition = NSCondition()
    private var pending: [Retired] = []
    private var trimRequested = false
    /// Trim once `pending` is freed, idle or not.
    private var trimNow = false
    /// A request is being handled (between `begin()` and `free`).
    private var busy = false
    private var lastActivity = Date()
    /// A response this large was built from a tree at least as large: give
    /// its memory back to the system afterwards.
    static let trimAfterResponseSize = 1 << 20
    /// Shared arena bytes requests freed since the last trim they caused
    /// that make the next one worth it: one arena.
    static let trimAfterFreedArenaBytes = ByteArena.chunkSize
    /// Shared arena bytes freed by the reaper's own batches.
    private var arenaBytesReaped = 0
    /// Whether a batch is being freed (its frees are not yet in
    /// `arenaBytesReaped`).
    private var reaping = false
    /// Shared arena bytes freed outside the reaper at the last trim they
    /// caused.
    private var arenaBytesFreedOutsideAtTrim = 0
    static let quietPeriod: TimeInterval = 0.2

    func start() {
        let thread = Thread { [self] in
            condition.lock()
            while true {
                if !pending.isEmpty {
                    var batch: [Retired] = []
                    swap(&batch, &pending)
                    reaping = true
                    condition.unlock()
                    let freedBefore = ByteArena.freedSharedBytes
                    batch.removeAll()  // the last references: frees here
                    let freed = ByteArena.freedSharedBytes - freedBefore
                    condition.lock()
                    reaping = false
                    arenaBytesReaped += freed
                    continue
                }
                if trimRequested && (trimNow || !busy) {
                    let idle = Date().timeIntervalSince(lastActivity)
                    if trimNow || (!busy && idle >= Self.quietPeriod) {
                        trimNow = false
                        trimRequested = false
                        condition.unlock()
                        // Freed memory scattered through the heap stays
                        // resident until trimmed; holding a large source
                        // should cost only it.
                        #if os(Linux)
                        _ = glibcMallocTrim(0)
                        #endif
                        condition.lock()
                    } else {
                        _ = condition.wait(until: lastActivity.addingTimeInterval(Self.quietPeriod))
                    }
                    continue
                }
                condition.wait()
            }
        }
        thread.start()
    }

    /// A request is being handled: no trimming until it is answered.
    func begin() {
        condition.lock()
        busy = true
        condition.unlock()
    }

    /// Takes what `retired` holds (freed now, in the background);
    /// `trim` also asks to return freed memory to the system once idle,
    /// `trimAtOnce` right after they are freed.
    func free(_ retired: inout [Retired], trim: Bool = false, trimAtOnce: Bool = false) {
        condition.lock()
        busy = false
        lastActivity = Date()
        let freedArenas = requestsFreedArenas()
        trimRequested = trimRequested || trim || !retired.isEmpty || freedArenas
        trimNow = trimNow || trimAtOnce || freedArenas
        let any = !retired.isEmpty
        pending.append(contentsOf: retired)
        // Dropped under the lock: once it is released the reaper may free
        // the batch at once, and the caller's references must not be the
        // last ones then (the caller would free the snapshots itself).
        retired.removeAll()
        // Woken only with work to do: a request that retires nothing (most
        // small ones) costs no system call here. A trim already waiting for
        // quiet reads the new `lastActivity` when its wait ends.
        if any || trim || trimAtOnce || freedArenas { condition.signal() }
        condition.unlock()
    }

    /// Whether requests freed an arena's worth of shared arenas since the
    /// last trim this answered yes for (the reaper's own frees are not
    /// counted; while a batch is being freed, the answer waits for the
    /// next request). Called under the lock.
    private func requestsFreedArenas() -> Bool {
        guard !reaping else { return false }
        let outside = ByteArena.freedSharedBytes - arenaBytesReaped
        guard outside - arenaBytesFreedOutsideAtTrim >= Self.trimAfterFreedArenaBytes else { return false }
        arenaBytesFreedOutsideAtTrim = outside
        return true
    }
}

#if os(Linux)
/// glibc's `malloc_trim` (malloc.h is not part of the Glibc module).
@_silgen_name("malloc_trim")
private func glibcMallocTrim(_ pad: Int) -> Int32
#endif
