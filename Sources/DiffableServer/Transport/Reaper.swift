import DiffableEngine
import Foundation

/// Frees replaced snapshots on a background thread, after their response
/// is sent, so that no request waits for a million items to be released.
///
/// Blocks of `largeBlock` bytes or more (a million items' array, a diff's
/// tables, a request) are mapped for themselves and unmapped when freed
/// (`start` sets glibc's mmap threshold). Left to itself, glibc raises
/// that threshold to 32 MiB as such blocks are freed, so the next ones
/// come from the heap, where freed memory stays resident: a client sending
/// 1M-item applies back to back then saw the daemon grow by ~50 MB of freed
/// blocks per apply until it stopped, and peak at 2.2× its steady state.
/// Fresh mappings cost page faults (~8 ms of a 1M-item apply's ~180).
///
/// Returning the rest of the freed memory to the system (`malloc_trim`)
/// waits until the daemon has been idle for `quietPeriod`: trimming walks
/// the whole heap under the allocator's lock.
final class Reaper: @unchecked Sendable {
    private let condition = NSCondition()
    private var pending: [Snapshot] = []
    private var trimRequested = false
    /// A request is being handled (between `begin()` and `free`).
    private var busy = false
    private var lastActivity = Date()
    /// A response this large was built from a tree at least as large: give
    /// its memory back to the system afterwards.
    static let trimAfterResponseSize = 1 << 20
    static let quietPeriod: TimeInterval = 0.2
    /// Blocks at least this large are mapped for themselves.
    static let largeBlock: Int32 = 4 << 20

    func start() {
        #if os(Linux)
        _ = glibcMallopt(glibcMmapThreshold, Self.largeBlock)
        #endif
        let thread = Thread { [self] in
            condition.lock()
            while true {
                if !pending.isEmpty {
                    var batch: [Snapshot] = []
                    swap(&batch, &pending)
                    condition.unlock()
                    batch.removeAll()  // the last references: frees here
                    condition.lock()
                    continue
                }
                if trimRequested && !busy {
                    let idle = Date().timeIntervalSince(lastActivity)
                    if idle >= Self.quietPeriod {
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

    /// Takes the snapshots out of `retired` (freed now, in the background);
    /// `trim` also asks to return freed memory to the system once idle.
    func free(_ retired: inout [Snapshot], trim: Bool = false) {
        condition.lock()
        busy = false
        lastActivity = Date()
        trimRequested = trimRequested || trim || !retired.isEmpty
        pending.append(contentsOf: retired)
        condition.signal()
        condition.unlock()
        retired.removeAll()
    }
}

#if os(Linux)
/// glibc's `malloc_trim` (malloc.h is not part of the Glibc module).
@_silgen_name("malloc_trim")
private func glibcMallocTrim(_ pad: Int) -> Int32

/// glibc's `mallopt`, and its `M_MMAP_THRESHOLD` parameter (malloc.h).
@_silgen_name("mallopt")
private func glibcMallopt(_ parameter: Int32, _ value: Int32) -> Int32
private let glibcMmapThreshold: Int32 = -3
#endif
