import Foundation
import DiffableProtocol

/// `--trace FILE`: appends every message in both directions to FILE, one
/// JSON object per line (NDJSON), so a user can attach a session to a bug
/// report and `diffable replay FILE` reproduces it.
///
/// A line is `{"time": seconds since 1970 (ms precision), "direction":
/// "in"|"out", "message": the message as sent}`; an incoming body that is
/// not JSON is recorded as `"text"` (a string) instead of `"message"`. Raw
/// newlines in a JSON body can only be whitespace, so they become spaces.
///
/// Thread-safe: the reader thread records inputs as they are framed, the
/// handling thread records outputs as they are written.
public final class Tracer: @unchecked Sendable {
    private let fd: Int32
    private let lock = NSLock()

    /// Opens FILE for appending (created with mode 0644 if needed).
    public init(path: String) throws {
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw TraceError(message: "cannot open trace file \(path): \(String(cString: strerror(errno)))")
        }
        self.fd = fd
    }

    deinit { close(fd) }

    public enum Direction: String, Sendable {
        case incoming = "in"
        case outgoing = "out"
    }

    /// Records a message skipped for its size, as
    /// `"tooLarge": {"id", "size", "limit"}` instead of `"message"` (its
    /// bytes were never held).
    public func recordTooLarge(id: JSON, size: Int, limit: Int) {
        let skipped = JSON.object(JSONObject([("id", id), ("size", .int(size)), ("limit", .int(limit))]))
        let time = Date().timeIntervalSince1970
        writeLine(Array("{\"time\":\(String(format: "%.3f", time)),\"direction\":\"in\",\"tooLarge\":".utf8)
              + JSONWriter.bytes(skipped) + Array("}\n".utf8))
    }

    /// Records one message body; `isJSON` false records it as text.
    /// - Complexity: O(body.count).
    public func record(_ body: [UInt8], _ direction: Direction, isJSON: Bool = true) {
        let time = Date().timeIntervalSince1970
        var line = Array("{\"time\":\(String(format: "%.3f", time)),\"direction\":\"\(direction.rawValue)\",".utf8)
        if isJSON {
            line.append(contentsOf: "\"message\":".utf8)
            line.append(contentsOf: body.lazy.map { $0 == 0x0A || $0 == 0x0D ? 0x20 : $0 })
        } else {
            line.append(contentsOf: "\"text\":".utf8)
            line.append(contentsOf: JSONWriter.bytes(.string(String(decoding: body, as: UTF8.self))))
        }
        line.append(contentsOf: "}\n".utf8)
        writeLine(line)
    }

    private func writeLine(_ line: [UInt8]) {
        lock.lock()
        defer { lock.unlock() }
        line.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count, let base = buffer.baseAddress {
                let written = write(fd, base + offset, buffer.count - offset)
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { return }  // a failing trace must not stop the session
                offset += written
            }
        }
    }
}

public struct TraceError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
