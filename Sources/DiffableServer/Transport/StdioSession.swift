import Foundation

/// Runs a `Server` over a pair of file descriptors (stdin/stdout).
///
/// A reader thread reads bytes, frames and parses them, and queues the
/// messages; the calling thread handles them one at a time in arrival order
/// and writes each response as soon as it is ready. Because parsing runs
/// ahead, a request that is already moot when its turn comes (its id named
/// by a queued `$/cancelRequest`, or a `search` followed by a newer `search`
/// of the same source) is answered with RequestCancelled (-32800) without
/// doing the work.
///
/// `@unchecked Sendable`: the reader thread touches only `queue` (locked) and
/// `mode` (guarded by `modeLock`); everything else stays on the calling thread.
public final class StdioSession: @unchecked Sendable {
    let server: Server
    let input: Int32
    let output: Int32
    let queue = MessageQueue()
    private var mode = MessageFramer.Mode.undetermined
    private let modeLock = NSLock()

    public init(server: Server, input: Int32 = 0, output: Int32 = 1) {
        self.server = server
        self.input = input
        self.output = output
    }

    /// Serves until `exit` or end of input; returns the process exit code.
    public func run() -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        let reader = Thread { [self] in readLoop() }
        reader.stackSize = 8 << 20
        reader.start()
        while true {
            let next = queue.pop()
            switch next {
            case .endOfInput:
                return 0
            case .malformed(let description):
                send(server.framingError(description))
            case .unparsable(let description):
                send(server.parseErrorResponse(description))
            case .message(let message):
                let response: JSON?
                if let cancelled = server.cancellation(for: message, pendingLater: queue.snapshotPending()) {
                    response = cancelled
                } else {
                    response = server.handle(message: message)
                }
                if let response { send(JSONWriter.bytes(response)) }
                if let code = server.exitCode { return code }
            }
        }
    }

    private func send(_ body: [UInt8]) {
        modeLock.lock()
        let currentMode = mode
        modeLock.unlock()
        let framed = FrameEncoder.frame(body, mode: currentMode)
        framed.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count, let base = buffer.baseAddress {
                let written = write(output, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return // peer gone; the read side will see EOF
                }
                offset += written
            }
        }
    }

    private func readLoop() {
        var framer = MessageFramer()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 {
                if let last = framer.finish() {
                    publishMode(framer.mode)
                    enqueue(last)
                }
                queue.push(.endOfInput)
                return
            }
            framer.append(buffer[0..<count])
            while let framed = framer.next() {
                // The framing is known by the time the first message is; it is
                // published before that message can be answered.
                publishMode(framer.mode)
                enqueue(framed)
            }
        }
    }

    private func publishMode(_ newMode: MessageFramer.Mode) {
        modeLock.lock()
        mode = newMode
        modeLock.unlock()
    }

    private func enqueue(_ framed: FramedMessage) {
        switch framed {
        case .malformed(let description):
            queue.push(.malformed(description))
        case .body(let body):
            do {
                queue.push(.message(try JSONParser.parse(body)))
            } catch {
                queue.push(.unparsable("\(error)"))
            }
        }
    }
}

/// Incoming events, in arrival order.
enum IncomingEvent: Sendable {
    case message(JSON)
    case unparsable(String)
    case malformed(String)
    case endOfInput
}

/// A blocking FIFO shared by the reader thread and the handling thread.
final class MessageQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [IncomingEvent] = []
    private var head = 0

    func push(_ event: IncomingEvent) {
        condition.lock()
        items.append(event)
        condition.signal()
        condition.unlock()
    }

    func pop() -> IncomingEvent {
        condition.lock()
        defer { condition.unlock() }
        while head >= items.count { condition.wait() }
        let event = items[head]
        // Release the message now: consumed slots are kept until the next
        // compaction and would otherwise hold whole parsed requests (a
        // 1M-item `apply` tree is hundreds of MB). Slots before `head` are
        // never read again.
        items[head] = .endOfInput
        head += 1
        if head > 1024 && head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
        return event
    }

    /// The messages already queued behind the one being handled.
    func snapshotPending() -> ArraySlice<IncomingEvent> {
        condition.lock()
        defer { condition.unlock() }
        return items[head...]
    }
}
