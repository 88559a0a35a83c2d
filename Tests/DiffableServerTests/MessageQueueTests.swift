import Foundation
import Testing
@testable import DiffableServer

/// The queue between the reader and the handler holds the reader back once
/// it holds more than its bound; what it counts follows what events hold.
@Suite struct MessageQueueTests {
    static func request(_ id: Int, pad: Int = 0) -> JSON {
        .object(JSONObject([("jsonrpc", .string("2.0")), ("id", .int(id)), ("method", .string("sources")),
                            ("params", .object(JSONObject([("pad", .string(String(repeating: "p", count: pad)))])))]))
    }

    @Test func theReaderWaitsWhileTheQueueIsOverItsBound() {
        let queue = MessageQueue(byteBound: 10_000)
        var pushed = 0
        while queue.queuedBytes <= queue.byteBound {
            queue.push(.message(Self.request(pushed, pad: 1000)), size: 1100)
            pushed += 1
        }
        #expect(pushed > 1 && pushed < 20)
        // The handler pops one event: the one being handled no longer counts.
        _ = queue.pop()
        #expect(queue.queuedBytes <= queue.byteBound)
        // Returns at once now (a hang here is the failure).
        let returned = DispatchSemaphore(value: 0)
        Thread { queue.waitForRoom(); returned.signal() }.start()
        #expect(returned.wait(timeout: .now() + 60) == .success)
        while pushed > 1 {
            _ = queue.pop()
            pushed -= 1
        }
        #expect(queue.queuedBytes == 0)
    }

    /// The reader, blocked on a full queue, goes on when the handler pops.
    @Test func aPopWakesTheWaitingReader() {
        let queue = MessageQueue(byteBound: 100)
        queue.push(.message(Self.request(1)), size: 500)
        queue.push(.message(Self.request(2)), size: 500)
        let returned = DispatchSemaphore(value: 0)
        Thread { queue.waitForRoom(); returned.signal() }.start()
        // Two pops: the second empties the queue, so the reader must be
        // free whether or not it was already waiting.
        _ = queue.pop()
        _ = queue.pop()
        #expect(returned.wait(timeout: .now() + 60) == .success)
    }

    @Test func eventsCountForTheirBytesOrTheirTreeWhicheverIsLarger() {
        let queue = MessageQueue()
        let small = MessageQueue.footprint(.message(Self.request(1)))
        let padded = MessageQueue.footprint(.message(Self.request(1, pad: 10_000)))
        #expect(padded - small >= 10_000)
        queue.push(.message(Self.request(1)), size: 1_000_000)
        #expect(queue.queuedBytes == 1_000_000)
        queue.push(.message(Self.request(2, pad: 10_000)), size: 10)
        #expect(queue.queuedBytes == 1_000_000 + padded)
        // A cancel queued behind them is still seen by the look-ahead.
        queue.push(.message(.object(JSONObject([("jsonrpc", .string("2.0")), ("method", .string("$/cancelRequest")),
                                                ("params", .object(JSONObject([("id", .int(2))])))]))))
        _ = queue.pop()
        #expect(queue.withPending { pending, hasCancels in pending.count == 2 && hasCancels })
    }

    @Test func footprintsFollowTheTree() {
        let slot = MemoryLayout<JSON>.stride
        #expect(JSON.null.footprint == slot)
        #expect(JSON.string("short").footprint == slot)
        #expect(JSON.string(String(repeating: "x", count: 1000)).footprint >= slot + 1000)
        let numbers = JSON.array(Array(repeating: .int(1), count: 10_000))
        #expect(numbers.footprint >= 10_000 * slot)
        let nested = JSON.array(Array(repeating: numbers, count: 3))
        #expect(nested.footprint >= 3 * numbers.footprint)
        // Deep trees are walked without recursion (kept shallow enough for
        // their own release, which recurses).
        var deep = JSON.null
        for _ in 0..<2_000 { deep = .array([deep]) }
        #expect(deep.footprint >= 2_000 * slot)
        let parsed = (try? JSONParser.parse(utf8(#"{"a":[1,2,{"b":"a string longer than inline"}],"c":{}}"#)))?.footprint
        #expect((parsed ?? 0) > 200)
    }
}
