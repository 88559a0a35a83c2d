import Foundation

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
