import Foundation
import DiffableProtocol

/// Writes framed replies to stdout on a thread of its own, many to a
/// `write`.
///
/// The handler frames each small reply into `buffer` and goes on with the
/// next request; the writer thread takes everything buffered in one batch.
/// It writes a batch when the handler says no request is waiting (`flush`),
/// when `batchBytes` are buffered, or `maxDelay` after the batch's first
/// reply — so a stream of small pipelined requests costs one system call
/// per batch instead of two per reply, and a reply never waits behind a
/// long request that follows it.
///
/// Backpressure stays: while more than `boundBytes` are unwritten (a client
/// that does not read its answers, so the pipe is full) the handler waits
/// in `post`, and the reader stops reading behind it (`MessageQueue`).
///
/// A write that fails ends the process with exit code 3 and one line on
/// stderr: a daemon whose answers cannot be delivered must not go on as if
/// they were.
final class ReplyWriter: @unchecked Sendable {
    /// Batches are written at this size even while requests are waiting.
    static let batchBytes = 64 << 10
    /// The handler waits in `post` while this much is unwritten.
    static let boundBytes = 4 << 20
    /// The longest a reply waits for others to share its write.
    static let maxDelay: Double = 0.001

    private let output: Int32
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var buffer: [UInt8] = []
    private var spare: [UInt8] = []
    private var flushRequested = false
    /// The writer thread holds a batch it is writing.
    private var writing = false
    private var writerWaiting = false
    private var handlerWaiting = false
    private var started = false

    init(output: Int32) {
        self.output = output
    }

    /// Frames `body` (`header`, `body`, `trailer`) into the next batch.
    /// Waits while more than `boundBytes` are unwritten.
    func post(header: [UInt8], body: UnsafeRawBufferPointer, trailer: [UInt8]) {
        append { buffer in
            buffer.append(contentsOf: header)
            buffer.append(contentsOf: body)
            buffer.append(contentsOf: trailer)
        }
    }

    /// Frames `body` for `mode` (`FrameEncoder`) into the next batch, the
    /// frame written straight into the batch. Waits while more than
    /// `boundBytes` are unwritten.
    func post(body: UnsafeRawBufferPointer, mode: MessageFramer.Mode) {
        append { buffer in
            FrameEncoder.appendFraming(bodyCount: body.count, mode: mode, before: true, to: &buffer)
            buffer.append(contentsOf: body)
            FrameEncoder.appendFraming(bodyCount: body.count, mode: mode, before: false, to: &buffer)
        }
    }

    /// Appends one framed message (`fill` writes it) to the next batch,
    /// waiting while more than `boundBytes` are unwritten, and wakes the
    /// writer when the batch was empty or has grown to `batchBytes`.
    private func append(_ fill: (inout [UInt8]) -> Void) {
        condition.lock()
        defer { condition.unlock() }
        startIfNeeded()
        while buffer.count > Self.boundBytes {
            handlerWaiting = true
            condition.wait()
            handlerWaiting = false
        }
        let wasEmpty = buffer.isEmpty
        fill(&buffer)
        if writerWaiting && (wasEmpty || buffer.count >= Self.batchBytes) { condition.broadcast() }
    }

    /// Asks for what is buffered to be written now (no request is waiting
    /// to add to it). - Complexity: O(1); the write happens on the writer thread.
    func flush() {
        condition.lock()
        defer { condition.unlock() }
        guard !buffer.isEmpty, !flushRequested else { return }
        flushRequested = true
        if writerWaiting { condition.broadcast() }
    }

    /// Returns once everything posted is written: before a reply is
    /// written straight from the handler (a large one), and before exit.
    func drain() {
        condition.lock()
        defer { condition.unlock() }
        while !buffer.isEmpty || writing {
            flushRequested = true
            if writerWaiting { condition.broadcast() }
            handlerWaiting = true
            condition.wait()
            handlerWaiting = false
        }
    }

    /// Writes `bytes` from the calling thread; the caller drained first.
    func writeDirectly(_ bytes: UnsafeRawBufferPointer) {
        Self.writeAll(output, bytes)
    }

    private func startIfNeeded() {
        guard !started else { return }
        started = true
        let thread = Thread { [self] in loop() }
        thread.name = "diffable reply writer"
        thread.start()
    }

    private func loop() {
        condition.lock()
        while true {
            while buffer.isEmpty {
                writerWaiting = true
                condition.wait()
                writerWaiting = false
            }
            // Let more replies join the batch, but not for long.
            let deadline = Date(timeIntervalSinceNow: Self.maxDelay)
            while !flushRequested, buffer.count < Self.batchBytes {
                writerWaiting = true
                let signalled = condition.wait(until: deadline)
                writerWaiting = false
                if !signalled { break }
            }
            swap(&buffer, &spare)
            flushRequested = false
            writing = true
            if handlerWaiting { condition.broadcast() }
            condition.unlock()
            spare.withUnsafeBytes { Self.writeAll(output, $0) }
            spare.removeAll(keepingCapacity: spare.capacity <= 4 * Self.batchBytes)
            condition.lock()
            writing = false
            if handlerWaiting { condition.broadcast() }
        }
    }

    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) {
        var offset = 0
        while offset < bytes.count, let base = bytes.baseAddress {
            let written = write(fd, base + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                FileHandle.standardError.write(Data("diffable: cannot write to stdout: \(reason); exiting\n".utf8))
                exit(3)
            }
            offset += written
        }
    }
}
