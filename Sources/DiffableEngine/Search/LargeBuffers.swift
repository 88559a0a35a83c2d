#if canImport(Glibc)
import Glibc
#endif

/// Hints for buffers of many megabytes (an index's texts, a million rows'
/// offsets), which are filled once from start to end right after they are
/// allocated.
enum LargeBuffers {
    /// Buffers from this size on are backed by huge pages where the system
    /// offers them on request.
    static let hugePageMinimum = 8 << 20

    /// Asks the kernel to back the whole 2 MiB pages inside `bytes` bytes
    /// at `base` with huge pages: filling 100 MB then takes 50 page faults,
    /// not 25,000. Only a hint: nothing changes where it is not honoured.
    /// - Complexity: O(1)
    static func preferHugePages(_ base: UnsafeMutableRawPointer, bytes: Int) {
        #if os(Linux)
        guard bytes >= hugePageMinimum else { return }
        let page = 2 << 20
        let start = (Int(bitPattern: base) &+ page &- 1) & ~(page &- 1)
        let end = (Int(bitPattern: base) &+ bytes) & ~(page &- 1)
        guard end > start, let aligned = UnsafeMutableRawPointer(bitPattern: start) else { return }
        _ = madvise(aligned, end &- start, MADV_HUGEPAGE)
        #endif
    }
}
