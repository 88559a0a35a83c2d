import Foundation
import Testing
@testable import DiffableServer
@testable import DiffableProtocol
import DiffableTestSupport

/// Replies are written in batches, in order, and none waits for a request
/// that follows it.
@Suite struct ReplyWriterTests {
    /// Reads `count` bytes from `fd`, or fewer if it ends first; nil after
    /// `timeout` seconds (a hang detector, not a speed check).
    static func read(_ fd: Int32, count: Int, timeout: TimeInterval = 60) -> [UInt8]? {
        final class Box: @unchecked Sendable { var bytes: [UInt8] = [] }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        Thread {
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while box.bytes.count < count {
                let n = chunk.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                box.bytes += chunk[0..<n]
            }
            done.signal()
        }.start()
        return done.wait(timeout: .now() + timeout) == .success ? box.bytes : nil
    }

    static func post(_ writer: ReplyWriter, _ text: String) {
        Array(text.utf8).withUnsafeBytes { writer.post(header: [], body: $0, trailer: [0x0A]) }
    }

    @Test func aReplyIsWrittenWithoutAFlush() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        let writer = ReplyWriter(output: fds[1])
        // The handler would now run a long request: nobody flushes.
        Self.post(writer, #"{"id":1}"#)
        #expect(Self.read(fds[0], count: 9) == Array("{\"id\":1}\n".utf8))
    }

    @Test func manyRepliesArriveWholeAndInOrder() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        let writer = ReplyWriter(output: fds[1])
        var expected: [UInt8] = []
        for i in 0..<20_000 {
            let reply = #"{"jsonrpc":"2.0","id":\#(i),"result":{"sources":[]}}"#
            expected += Array(reply.utf8) + [0x0A]
        }
        Thread {
            for i in 0..<20_000 {
                Self.post(writer, #"{"jsonrpc":"2.0","id":\#(i),"result":{"sources":[]}}"#)
                if i % 1000 == 999 { writer.flush() }
            }
            writer.drain()
        }.start()
        let received = Self.read(fds[0], count: expected.count)
        #expect(received == expected)
    }

    @Test func drainReturnsOnceEverythingIsWritten() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        let writer = ReplyWriter(output: fds[1])
        Self.post(writer, "a")
        Self.post(writer, "b")
        writer.drain()
        // Written before `drain` returned: a direct write comes after them.
        Array("c\n".utf8).withUnsafeBytes { writer.writeDirectly($0) }
        #expect(Self.read(fds[0], count: 6) == Array("a\nb\nc\n".utf8))
    }
}

/// The frame written straight into a batch is the frame `FrameEncoder`
/// spells.
@Suite struct FramingIntoBatchTests {
    @Test func appendedFramesSpellTheSameAsFraming() {
        for count in [0, 1, 9, 10, 99, 100, 12_345, 1 << 20, 1_000_000_007] {
            for mode in [MessageFramer.Mode.lineDelimited, .contentLength, .undetermined] {
                let (header, trailer) = FrameEncoder.framing(bodyCount: count, mode: mode)
                var before: [UInt8] = [0x41], after: [UInt8] = []
                FrameEncoder.appendFraming(bodyCount: count, mode: mode, before: true, to: &before)
                FrameEncoder.appendFraming(bodyCount: count, mode: mode, before: false, to: &after)
                #expect(before == [0x41] + header, "\(count) \(mode)")
                #expect(after == trailer, "\(count) \(mode)")
            }
        }
    }

    @Test func contentLengthRepliesArriveFramed() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        let writer = ReplyWriter(output: fds[1])
        let bodies = (0..<2_000).map { Array(#"{"jsonrpc":"2.0","id":\#($0),"result":null}"#.utf8) }
        let expected = bodies.flatMap { Array("Content-Length: \($0.count)\r\n\r\n".utf8) + $0 }
        // Posted from another thread, as the handler does: more than a pipe
        // holds, so the writer waits for this thread to read.
        Thread {
            for body in bodies { body.withUnsafeBytes { writer.post(body: $0, mode: .contentLength) } }
            writer.drain()
        }.start()
        #expect(ReplyWriterTests.read(fds[0], count: expected.count) == expected)
    }
}
