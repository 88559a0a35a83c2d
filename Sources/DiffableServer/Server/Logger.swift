import Foundation
import DiffableProtocol

/// Writes log lines to stderr only: stdout carries protocol and nothing else.
///
/// Lines go through `StderrSink`, whose own thread does the writing: a
/// client that spawns the daemon with stderr on a pipe it never reads
/// (Python's `stderr=PIPE`, several editors) fills the pipe, and then only
/// that thread waits, never the thread answering requests. Lines that
/// arrive while more than `StderrSink.capacity` bytes wait are dropped and
/// counted; the count is logged once stderr drains.
public struct Logger: Sendable {
    public enum Level: Int, Comparable, Sendable, CaseIterable {
        case error, warning, info, debug
        public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
        public var name: String { String(describing: self) }
    }

    public var level: Level

    public init(level: Level = .warning) {
        self.level = level
    }

    public func log(_ level: Level, _ message: @autoclosure () -> String) {
        guard level <= self.level else { return }
        StderrSink.shared.enqueue("diffable [\(level.name)] \(message())\n")
    }

    /// Waits until the queued lines are written, or `timeout` seconds pass
    /// (stderr may never be read): called before the process exits.
    public static func flush(timeout: Double = 1) {
        StderrSink.shared.flush(timeout: timeout)
    }
}

/// A bounded queue of log bytes and the thread that writes them to fd 2.
final class StderrSink: @unchecked Sendable {
    static let shared = StderrSink()
    /// Bytes that may wait; more are dropped (and counted).
    static let capacity = 1 << 20

    private let condition = NSCondition()
    // Guarded by `condition`.
    private var pending: [UInt8] = []
    private var dropped = 0
    private var writing = false
    private var started = false

    func enqueue(_ line: String) {
        condition.lock()
        defer { condition.unlock() }
        if !started {
            started = true
            let thread = Thread { [self] in run() }
            thread.name = "diffable stderr"
            thread.start()
        }
        guard pending.count + line.utf8.count <= Self.capacity else {
            dropped += 1
            return
        }
        pending.append(contentsOf: line.utf8)
        condition.broadcast()
    }

    func flush(timeout: Double) {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while started, !pending.isEmpty || writing {
            if !condition.wait(until: deadline) { return }
        }
    }

    private func run() {
        while true {
            condition.lock()
            while pending.isEmpty && dropped == 0 { condition.wait() }
            var chunk = pending
            pending = []
            if dropped > 0 {
                chunk += Array("diffable [warning] \(dropped) log lines dropped: stderr was not being read\n".utf8)
                dropped = 0
            }
            writing = true
            condition.unlock()
            Self.write(chunk)
            condition.lock()
            writing = false
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Writes all of `bytes` to fd 2 (blocking: this is the sink's thread).
    private static func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count, let base = buffer.baseAddress {
                let n = Foundation.write(2, base + offset, buffer.count - offset)
                if n > 0 { offset += n } else if n < 0 && errno == EINTR { continue } else { return }
            }
        }
    }
}
