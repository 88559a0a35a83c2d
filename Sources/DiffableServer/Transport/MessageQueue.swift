import Foundation
import DiffableProtocol

/// Incoming events, in arrival order.
enum IncomingEvent: Sendable {
    /// `lazyParams`: see `LazyRequest`.
    case message(JSON, lazyParams: LazyParams? = nil)
    case unparsable(String)
    case malformed(String)
    /// A message over `--max-message-bytes`, skipped unread: the request id
    /// found at its start (`.null` when none was), and the sizes.
    case tooLarge(id: JSON, size: Int, limit: Int)
    case endOfInput
    /// Not a message: work started by an earlier request finished while
    /// the handler may be waiting for input (a progressive search's
    /// refinement, `Server.finishRefinement`).
    case wake
}

extension IncomingEvent: QueuedMessage {
    var queuedMessage: JSON? {
        if case .message(let message, _) = self { return message }
        return nil
    }
}

/// A blocking FIFO shared by the reader thread and the handling thread.
///
/// It also holds the reader back: the reader waits (`waitForRoom`) before
/// each read while the queued events take more than `byteBound` bytes, so a
/// client that sends faster than the daemon answers (or never reads its
/// answers, blocking their writes) fills the pipe instead of the daemon's
/// memory. The event being handled has been popped and does not count: with
/// nothing else queued, the reader always reads, and a `$/cancelRequest` for
/// a long request gets through.
final class MessageQueue: @unchecked Sendable {
    /// 64 MiB: a few hundred thousand small requests queued ahead (all that
    /// look-ahead needs), at a fraction of what a large `apply` itself takes.
    static let defaultByteBound = 64 << 20

    let byteBound: Int
    private let condition = NSCondition()
    // Read and written under `condition` only: the runtime exclusivity
    // check (paid per access, several per message) is left out.
    @exclusivity(unchecked) private var items: [IncomingEvent] = []
    /// What `items[i]` counts for (see `push`), for the same `i`.
    @exclusivity(unchecked) private var costs: [Int] = []
    @exclusivity(unchecked) private var head = 0
    /// The sum of `costs[head...]`.
    @exclusivity(unchecked) private(set) var queuedBytes = 0
    /// `$/cancelRequest` notifications queued and not yet popped: when there
    /// are none, only the next queued request can make one moot.
    @exclusivity(unchecked) private var queuedCancels = 0
    /// Threads waiting on `condition`: the handler for an event, the reader
    /// for room. Nobody is woken when nobody waits, so a stream of small
    /// messages is handed over without a system call per message.
    @exclusivity(unchecked) private var waitingForEvents = 0
    @exclusivity(unchecked) private var waitingForRoom = 0

    init(byteBound: Int = MessageQueue.defaultByteBound) {
        self.byteBound = byteBound
    }

    /// `size`: the bytes the event was read from. An event counts for the
    /// larger of its size and its `footprint`, so the bound limits both the
    /// memory queued and how far the reader runs ahead of the handler.
    func push(_ event: IncomingEvent, size: Int = 0) {
        push([(event, size)])
    }

    /// Queues events in order, under one lock (the reader hands over the
    /// small messages of one read together).
    func push(_ events: [(event: IncomingEvent, size: Int)]) {
        push(counted: events.map { ($0.event, max($0.size, Self.footprint($0.event)), Self.isCancel($0.event)) })
    }

    /// Queues events whose cost (see `push(_:size:)`) and cancel-ness the
    /// caller already knows, in order, under one lock: the reader hands
    /// over the small messages of one read together, their footprints
    /// counted while they were parsed.
    /// - Complexity: amortized O(events.count).
    func push(counted events: [(event: IncomingEvent, cost: Int, isCancel: Bool)]) {
        guard !events.isEmpty else { return }
        condition.lock()
        for entry in events {
            items.append(entry.event)
            costs.append(entry.cost)
            queuedBytes += entry.cost
            if entry.isCancel { queuedCancels += 1 }
        }
        if waitingForEvents > 0 { condition.broadcast() }
        condition.unlock()
    }

    static func isCancel(_ event: IncomingEvent) -> Bool {
        guard case .message(.object(let object), _) = event else { return false }
        return object["method"] == .string("$/cancelRequest")
    }

    /// What queuing an event costs besides what it holds: its slot and its cost's.
    static let base = MemoryLayout<IncomingEvent>.stride + MemoryLayout<Int>.stride

    /// About the memory an event holds while queued: a large request's bytes
    /// (its params stay unparsed until handled), a parsed message's tree.
    static func footprint(_ event: IncomingEvent) -> Int {
        switch event {
        case .message(let message, let lazyParams):
            return base + message.footprint + (lazyParams?.body.count ?? 0)
        case .unparsable(let description), .malformed(let description):
            return base + description.utf8.count
        case .tooLarge(let id, _, _):
            return base + id.footprint
        case .endOfInput, .wake:
            return base
        }
    }

    /// The next event, waiting for one. `whenEmpty` runs (under the lock)
    /// before waiting: the handler's cue that no request is queued.
    func pop(whenEmpty: () -> Void = {}) -> IncomingEvent {
        pop(whenEmpty: whenEmpty) { _, _, _ in () }.event
    }

    /// `pop`, then `inspect` on the event and the events queued after it,
    /// as `withPending` gives them, under the same lock: the handler's one
    /// lock per message.
    func pop<R>(whenEmpty: () -> Void = {},
                inspect: (IncomingEvent, ArraySlice<IncomingEvent>, _ hasCancels: Bool) -> R) -> (event: IncomingEvent, inspected: R) {
        condition.lock()
        defer { condition.unlock() }
        if head >= items.count { whenEmpty() }
        while head >= items.count {
            waitingForEvents += 1
            condition.wait()
            waitingForEvents -= 1
        }
        let event = items[head]
        if Self.isCancel(event) { queuedCancels -= 1 }
        queuedBytes -= costs[head]
        // Drop the queue's reference now (a large request's body, or its
        // tree), not at the next compaction; the slot is never read again.
        items[head] = .endOfInput
        head += 1
        if head > 1024 && head * 2 > items.count {
            items.removeFirst(head)
            costs.removeFirst(head)
            head = 0
        }
        if waitingForRoom > 0, queuedBytes <= byteBound { condition.broadcast() }
        return (event, inspect(event, items[head...], queuedCancels > 0))
    }

    /// Returns once the queued events take at most `byteBound` bytes.
    func waitForRoom() {
        condition.lock()
        defer { condition.unlock() }
        while queuedBytes > byteBound {
            waitingForRoom += 1
            condition.wait()
            waitingForRoom -= 1
        }
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
