import DiffableEngine
import Foundation

/// Frees replaced snapshots on a background thread, after their response
/// is sent, so that no request waits for a million items to be released.
final class Reaper: @unchecked Sendable {
    private let condition = NSCondition()
    private var pending: [Snapshot] = []
    private var trimRequested = false
    /// A response this large was built from a tree at least as large: give
    /// its memory back to the system afterwards.
    static let trimAfterResponseSize = 1 << 20

    func start() {
        let thread = Thread { [self] in
            while true {
                condition.lock()
                while pending.isEmpty && !trimRequested { condition.wait() }
                var batch: [Snapshot] = []
                swap(&batch, &pending)
                let trim = trimRequested || !batch.isEmpty
                trimRequested = false
                condition.unlock()
                batch.removeAll()  // the last references: frees here
                // Freed memory scattered through the heap stays resident
                // until trimmed; holding a large source should cost only it.
                #if os(Linux)
                if trim { _ = glibcMallocTrim(0) }
                #endif
            }
        }
        thread.start()
    }

    /// Takes the snapshots out of `retired`; `trim` also asks to return
    /// freed memory to the system.
    func free(_ retired: inout [Snapshot], trim: Bool = false) {
        guard !retired.isEmpty || trim else { return }
        condition.lock()
        trimRequested = trimRequested || trim
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
#endif
