import DiffableEngine
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
    let reaper = Reaper()
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
        reaper.start()
        while true {
            let next = queue.pop()
            switch next {
            case .endOfInput:
                return 0
            case .malformed(let description):
                send(server.framingError(description))
            case .unparsable(let description):
                send(server.parseErrorResponse(description))
            case .message(let message, let lazyParams):
                let response: JSON?
                if let cancelled = queue.withPending({ server.cancellation(for: message, pendingLater: $0, hasCancels: $1) }) {
                    response = cancelled
                } else {
                    response = server.handle(message: message, lazyParams: lazyParams)
                }
                var sentBytes = 0
                if let response {
                    let body = JSONWriter.bytes(response)
                    sentBytes = body.count
                    send(body)
                }
                reaper.free(&server.retired, trim: sentBytes >= Reaper.trimAfterResponseSize)
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
        // Large requests arrive in fewer, bigger reads.
        Self.enlargePipe(input)
        Self.enlargePipe(output)
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
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

    /// Asks for a 1 MiB pipe buffer (F_SETPIPE_SZ); harmless when `fd` is
    /// not a pipe or the request is refused.
    private static func enlargePipe(_ fd: Int32) {
        #if os(Linux)
        _ = fcntl(fd, 1031 /* F_SETPIPE_SZ */, Int32(1 << 20))
        #endif
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
            if body.count >= LazyRequest.minimumBodySize, let (envelope, params) = LazyRequest.split(body) {
                queue.push(.message(envelope, lazyParams: params))
                return
            }
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
    /// `lazyParams`: see `LazyRequest`.
    case message(JSON, lazyParams: LazyParams? = nil)
    case unparsable(String)
    case malformed(String)
    case endOfInput
}

/// A blocking FIFO shared by the reader thread and the handling thread.
final class MessageQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [IncomingEvent] = []
    private var head = 0
    /// `$/cancelRequest` notifications queued and not yet popped: when there
    /// are none, only the next queued request can make one moot.
    private var queuedCancels = 0

    func push(_ event: IncomingEvent) {
        condition.lock()
        items.append(event)
        if Self.isCancel(event) { queuedCancels += 1 }
        condition.signal()
        condition.unlock()
    }

    private static func isCancel(_ event: IncomingEvent) -> Bool {
        guard case .message(.object(let object), _) = event else { return false }
        return object["method"] == .string("$/cancelRequest")
    }

    func pop() -> IncomingEvent {
        condition.lock()
        defer { condition.unlock() }
        while head >= items.count { condition.wait() }
        let event = items[head]
        if Self.isCancel(event) { queuedCancels -= 1 }
        // Drop the queue's reference now (a large request's body, or its
        // tree), not at the next compaction; the slot is never read again.
        items[head] = .endOfInput
        head += 1
        if head > 1024 && head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
        return event
    }

    /// Runs `body` on the messages already queued behind the one being
    /// handled, under the lock (so no copy of the queue is made), and tells
    /// it whether any of them is a `$/cancelRequest`.
    func withPending<R>(_ body: (ArraySlice<IncomingEvent>, _ hasCancels: Bool) -> R) -> R {
        condition.lock()
        defer { condition.unlock() }
        return body(items[head...], queuedCancels > 0)
    }
}

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
