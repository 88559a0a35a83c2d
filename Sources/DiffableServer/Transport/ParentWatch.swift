import Foundation
import DiffableProtocol

/// LSP's `processId` (or `--clientProcessId`): the daemon exits by itself
/// when the editor that started it is gone, so a crashed editor never
/// leaves an orphan holding a million items.
enum ParentWatch {
    /// How often the process is looked at: an orphan lives at most this long.
    static let interval: useconds_t = 200_000

    /// Starts a thread that ends the process (exit code 1, as an `exit`
    /// without `shutdown`) once `pid` no longer runs.
    static func start(_ pid: Int32, logger: Logger) {
        let thread = Thread {
            while isAlive(pid) { usleep(interval) }
            FileHandle.standardError.write(Data("diffable: client process \(pid) is gone; exiting\n".utf8))
            exit(1)
        }
        thread.start()
        logger.log(.info, "watching client process \(pid)")
    }

    /// Whether `pid` runs: it exists (`kill(pid, 0)`; EPERM means it exists
    /// but belongs to someone else) and, on Linux, is not a zombie waiting to
    /// be reaped (its parent may never reap it).
    static func isAlive(_ pid: Int32) -> Bool {
        if kill(pid, 0) != 0 && errno == ESRCH { return false }
        #if os(Linux)
        if let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
           let close = stat.lastIndex(of: ")") {
            let state = stat[stat.index(after: close)...].drop { $0 == " " }.first
            if state == "Z" || state == "X" { return false }
        }
        #endif
        return true
    }
}
