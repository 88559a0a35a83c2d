import DiffableEngine
import Foundation
import DiffableProtocol

/// Runs a `Server` over a pair of file descriptors (stdin/stdout).
///
/// A reader thread reads bytes, frames and parses them, and queues the
/// messages; a handler thread handles them one at a time in arrival order
/// and writes each response as soon as it is ready. Because parsing runs
/// ahead, a request that is already moot when its turn comes (its id named
/// by a queued `$/cancelRequest`, or a `search` followed by a newer `search`
/// of the same source) is answered with RequestCancelled (-32800) without
/// doing the work.
///
/// A `$/cancelRequest` that arrives while its request is running sets that
/// request's `CancellationFlag`; the handler stops at its next safe point.
///
/// Memory stays bounded whatever the client does: a message over
/// `maxMessageBytes` is skipped as it streams in (`MessageFramer`), and the
/// reader stops reading while the queue holds more than its bound
/// (`MessageQueue`), so a client that never reads its answers finds its
/// writes blocked rather than the daemon's memory growing.
///
/// `@unchecked Sendable`: the reader thread touches only `queue` (locked),
/// `mode` (guarded by `modeLock`), `running` (guarded by `runningLock`) and
/// the tracer (locked); everything else stays on the handler thread (the
/// thread that calls `run` only waits for it).
public final class StdioSession: @unchecked Sendable {
    let server: Server
    let input: Int32
    let output: Int32
    let queue = MessageQueue()
    let writer: ReplyWriter
    let reaper = Reaper()
    let tracer: Tracer?
    let maxMessageBytes: Int
    private var mode = MessageFramer.Mode.undetermined
    private let modeLock = NSLock()
    /// The request being handled: its id, its `workDoneToken` and its
    /// cancellation flag.
    private var running: (id: JSON, token: JSON?, flag: CancellationFlag)?
    private let runningLock = NSLock()
    private var watchedProcess: Int32?

    /// `parentProcessID`: end the session when that process is gone (also
    /// set later by `initialize`'s `processId`).
    public init(server: Server, input: Int32 = 0, output: Int32 = 1, tracer: Tracer? = nil,
                parentProcessID: Int32? = nil, maxMessageBytes: Int = MessageFramer.defaultMaxMessageBytes) {
        self.server = server
        self.maxMessageBytes = maxMessageBytes
        self.input = input
        self.output = output
        self.writer = ReplyWriter(output: output)
        self.tracer = tracer
        self.watchedProcess = parentProcessID
    }

    /// The call stack of the reader and the handler threads. Compiled code
    /// that tears down or compares a parsed message recurses once per
    /// nesting level (a few hundred bytes each, up to
    /// `NestingLimits.message` levels); the daemon's own walks use explicit
    /// stacks. This is many times what that needs, whatever `ulimit -s` the
    /// daemon was started with; untouched stack pages cost no memory.
    static let threadStackSize = 64 << 20

    /// Keeps the calling thread from ending: the process ends from the main
    /// thread once `run` returns. The handler thread runs parallel scans and
    /// decodes (`DispatchQueue.concurrentPerform`), and a thread that did
    /// so and then ends has libdispatch free its per-thread cache in a way
    /// that can corrupt the heap (see `PassThreads`); racing the process's
    /// exit, that would turn a clean `exit` into an abort.
    static func parkForever() -> Never {
        let never = DispatchSemaphore(value: 0)
        while true { never.wait() }
    }

    /// Serves until `exit` or end of input; returns the process exit code.
    public func run() -> Int32 {
        final class ExitCode: @unchecked Sendable {
            // Written by the handler thread before `done` is signalled,
            // read after the wait.
            var value: Int32 = 0
        }
        let code = ExitCode()
        let done = DispatchSemaphore(value: 0)
        let handler = Thread { [self] in
            code.value = serve()
            done.signal()
            Self.parkForever()
        }
        handler.stackSize = Self.threadStackSize
        handler.start()
        done.wait()
        return code.value
    }

    private func serve() -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        let reader = Thread { [self] in
            readLoop()
            Self.parkForever()
        }
        reader.stackSize = Self.threadStackSize
        reader.start()
        reaper.start()
        if let pid = watchedProcess { ParentWatch.start(pid, logger: server.logger) }
        // Progress and other notifications go out at once: they report on
        // work still running.
        server.notificationSink = { [self] in
            send(JSONWriter.bytes($0))
            writer.flush()
        }
        server.wake = { [queue] in queue.push(.wake) }
        while true {
            // Replies wait for a shared write only while requests are queued.
            // A request made moot by a message queued after it is answered
            // without running (`Server.cancellation`); the look is taken
            // under the lock that pops it.
            let (next, cancelled) = queue.pop(whenEmpty: writer.flush) { event, later, hasCancels -> JSON? in
                guard case .message(let message, _) = event else { return nil }
                return server.cancellation(for: message, pendingLater: later, hasCancels: hasCancels)
            }
            switch next {
            case .endOfInput:
                writer.drain()
                return 0
            case .wake:
                server.finishRefinement(waiting: false)
            case .malformed(let description):
                send(server.framingError(description))
            case .unparsable(let description):
                send(server.parseErrorResponse(description))
            case .tooLarge(let id, let size, let limit):
                _ = send(server.messageTooLarge(id: id, size: size, limit: limit))
            case .message(let message, let lazyParams):
                let response: JSON?
                reaper.begin()
                // Background builds the request makes start once its reply
                // is written (see `BackgroundBuilds`).
                BackgroundBuilds.holdStarts()
                if let cancelled {
                    response = cancelled
                } else {
                    let flag = CancellationFlag()
                    setRunning(message, flag, token: lazyParams?.workDoneToken)
                    server.cancellation = flag
                    response = server.handle(message: message, lazyParams: lazyParams)
                    setRunning(nil, nil)
                }
                var sentBytes = 0
                if let response { sentBytes = send(response) }
                BackgroundBuilds.releaseHeldStarts()
                reaper.free(&server.retired, trim: sentBytes >= Reaper.trimAfterResponseSize,
                            trimAtOnce: lazyParams.map { $0.release != .keep } ?? false)
                if let code = server.exitCode {
                    writer.drain()
                    return code
                }
                if watchedProcess == nil, let pid = server.parentProcessID {
                    watchedProcess = pid
                    ParentWatch.start(pid, logger: server.logger)
                }
            }
        }
    }

    /// Remembers the request being handled (nil when none), for cancels
    /// that arrive while it runs.
    private func setRunning(_ message: JSON?, _ flag: CancellationFlag?, token: JSON? = nil) {
        runningLock.lock()
        defer { runningLock.unlock() }
        if case .object(let object)? = message, let id = object["id"], let flag {
            running = (id, token ?? object["params"]?["workDoneToken"], flag)
        } else {
            running = nil
        }
    }

    /// Reader thread: a `$/cancelRequest` naming the running request, or a
    /// `window/workDoneProgress/cancel` naming its progress token (the
    /// editor's cancel button), stops it.
    private func cancelIfRunning(_ message: JSON) {
        guard case .object(let object) = message, object["id"] == nil,
              case .object(let params)? = object["params"] else { return }
        runningLock.lock()
        defer { runningLock.unlock() }
        guard let running else { return }
        switch object["method"] {
        case .string("$/cancelRequest")?:
            if let id = params["id"], running.id == id { running.flag.cancel() }
        case .string("window/workDoneProgress/cancel")?:
            if let token = params["token"], running.token == token { running.flag.cancel() }
        default:
            break
        }
    }

    /// Writes one framed message (through the batching writer).
    private func send(_ body: [UInt8]) {
        tracer?.record(body, .outgoing)
        let mode = currentMode
        body.withUnsafeBytes { writer.post(body: $0, mode: mode) }
    }

    /// The handler's serialization buffer, reused for every reply.
    private var replyBytes: [UInt8] = []

    /// Writes one framed response, serialized as it is written: a reply
    /// that echoes a million items is never held twice, nor
    /// copied into a frame (`JSONWriter.stream`). A reply shorter than one
    /// piece (any but the largest) joins the writer's next batch. A larger
    /// one is written from here once the replies before it are out: one
    /// message per line streams its pieces as they come; a `Content-Length`
    /// frame is measured by a first pass that writes nothing, then
    /// serialized again. Answers the body's size.
    private func send(_ response: JSON) -> Int {
        if tracer != nil {
            let body = JSONWriter.bytes(response)
            send(body)
            return body.count
        }
        let mode = currentMode
        var emitted = 0
        JSONWriter.stream(response, reusing: &replyBytes) { piece in
            if mode == .lineDelimited {
                if emitted == 0 { writer.drain() }
                writeAll(piece)
            }
            emitted += piece.count
        }
        let count = emitted + replyBytes.count
        if emitted == 0 {
            replyBytes.withUnsafeBytes { writer.post(body: $0, mode: mode) }
            return count
        }
        let (header, trailer) = FrameEncoder.framing(bodyCount: count, mode: mode)
        if mode == .lineDelimited {
            writeAll(replyBytes)
            writeAll(trailer)
            return count
        }
        writer.drain()
        writeAll(header)
        var written = 0
        JSONWriter.stream(response) { piece in
            written += piece.count
            writeAll(piece)
        }
        writeAll(trailer)
        return written
    }

    private var currentMode: MessageFramer.Mode {
        modeLock.lock()
        defer { modeLock.unlock() }
        return mode
    }

    /// Writes all of `bytes` to stdout from the handler (see `ReplyWriter.writeAll`).
    private func writeAll(_ bytes: UnsafeRawBufferPointer) {
        writer.writeDirectly(bytes)
    }

    private func writeAll(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { writeAll($0) }
    }

    private func readLoop() {
        var framer = MessageFramer(maxMessageBytes: maxMessageBytes)
        // Large requests arrive in fewer, bigger reads.
        Self.enlargePipe(input)
        Self.enlargePipe(output)
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var firstByteAt: UInt64 = 0
        while true {
            // Backpressure: no more input while the queue is full; the
            // client's writes block once the pipe is full too.
            queue.waitForRoom()
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if framer.bufferedByteCount == 0 { firstByteAt = DispatchTime.now().uptimeNanoseconds }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 {
                if var last = framer.finish() {
                    publishMode(framer.mode)
                    _ = enqueue(&last)
                }
                pushStaged()
                queue.push(.endOfInput)
                return
            }
            framer.append(buffer[0..<count])
            while var framed = framer.next() {
                // The framing is known by the time the first message is; it is
                // published before that message can be answered.
                publishMode(framer.mode)
                if case .body(let body) = framed, body.count >= LazyRequest.minimumBodySize {
                    server.logger.log(.debug, "received a \(body.count)-byte message in " + Server.milliseconds(since: firstByteAt))
                }
                if !enqueue(&framed), case .body(let body) = framed {
                    // Most likely a wrong Content-Length: find the next message.
                    framer.resynchronize(after: body)
                }
            }
            pushStaged()
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

    /// Events parsed from one read, queued together (reader thread only),
    /// with what each counts for in the queue (`MessageQueue.push(counted:)`).
    private var staged: [(event: IncomingEvent, cost: Int, isCancel: Bool)] = []
    /// The parser's working stacks, kept from one message to the next.
    /// Only the reader thread touches them, one access at a time, so the
    /// runtime exclusivity check is left out.
    @exclusivity(unchecked) private var parseBuffers = JSONParser.ParseBuffers()
    /// Staged events are queued at least this often, so the handler starts
    /// on the first messages of a large read while the rest are parsed.
    static let stageLimit = 32

    /// `footprint`: the event's, when known (a parsed message's, counted by
    /// the parser); else it is walked (`MessageQueue.footprint`).
    private func stage(_ event: IncomingEvent, size: Int = 0, footprint: Int? = nil) {
        let held = footprint.map { MessageQueue.base + $0 } ?? MessageQueue.footprint(event)
        staged.append((event, max(size, held), MessageQueue.isCancel(event)))
        if staged.count >= Self.stageLimit { pushStaged() }
    }

    private func pushStaged() {
        queue.push(counted: staged)
        staged.removeAll(keepingCapacity: true)
    }

    /// Queues a framed message (parsed); false when its body is not JSON
    /// (`framed` then still holds it).
    private func enqueue(_ framed: inout FramedMessage) -> Bool {
        switch framed {
        case .malformed(let description):
            tracer?.record(Array(description.utf8), .incoming, isJSON: false)
            stage(.malformed(description))
            return true
        case .tooLarge(let skipped):
            let id = RequestIDScanner.id(in: skipped.head) ?? .null
            server.logger.log(.warning, "skipped a message of \(skipped.size) bytes, over --max-message-bytes \(skipped.limit)")
            tracer?.recordTooLarge(id: id, size: skipped.size, limit: skipped.limit)
            stage(.tooLarge(id: id, size: skipped.size, limit: skipped.limit))
            return true
        case .body(var body):
            // A large request's bytes are handed over: once queued, the
            // handler holds their one reference and may give pages back
            // while it reads them (`ReleasedRuns`) without copying them.
            framed = .body([])
            let started = DispatchTime.now().uptimeNanoseconds
            if body.count >= Server.smallestLazyBody,
               let (envelope, params) = LazyRequest.split(body, methods: Server.lazyParamsMethods, minimumSizes: Server.lazyBodyMinimum) {
                server.logger.log(.debug, "validated a \(body.count)-byte request in " + Server.milliseconds(since: started))
                tracer?.record(body, .incoming)
                body = []
                // Queued at once and alone: the handler must hold the only
                // reference to its bytes.
                pushStaged()
                queue.push(.message(envelope, lazyParams: params))
                return true
            }
            do {
                let (message, footprint) = try JSONParser.parseCountingFootprint(body, reusing: &parseBuffers)
                tracer?.record(body, .incoming)
                cancelIfRunning(message)
                stage(.message(message), size: body.count, footprint: footprint)
                return true
            } catch {
                tracer?.record(body, .incoming, isJSON: false)
                stage(.unparsable("\(error)"), size: body.count)
                framed = .body(body)
                return false
            }
        }
    }
}
