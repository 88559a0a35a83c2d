import Foundation
import Testing
@testable import DiffableServer
@testable import DiffableProtocol
import DiffableTestSupport

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

/// The handler's one lock per message: popping and looking at what is
/// queued behind it happen together.
@Suite struct MessageQueuePopTests {
    static func cancel(_ id: Int) -> JSON {
        .object(JSONObject([("jsonrpc", .string("2.0")), ("method", .string("$/cancelRequest")),
                            ("params", .object(JSONObject([("id", .int(id))])))]))
    }

    @Test func theInspectionSeesTheEventsQueuedBehindInOrder() {
        let queue = MessageQueue()
        queue.push([(.message(MessageQueueTests.request(1)), 10), (.message(MessageQueueTests.request(2)), 10),
                    (.message(Self.cancel(1)), 10)])
        let (first, later) = queue.pop { event, pending, hasCancels -> (Int, Bool, Bool) in
            guard case .message(let message, _) = event else { return (-1, false, false) }
            let laterIDs = pending.compactMap { event -> JSON? in
                if case .message(let message, _) = event { return message["id"] ?? message["params"]?["id"] }
                return nil
            }
            return (message["id"]?.intValue ?? -1, laterIDs == [.int(2), .int(1)], hasCancels)
        }
        guard case .message = first else {
            Issue.record("expected a message")
            return
        }
        #expect(later.0 == 1 && later.1 && later.2)
        // Once the cancel itself is popped, none is counted any more.
        _ = queue.pop()
        let (_, stillCancels) = queue.pop { _, pending, hasCancels in pending.isEmpty ? hasCancels : true }
        #expect(!stillCancels)
    }

    /// Counted events (the reader's path) weigh what they were counted for.
    @Test func countedEventsWeighTheirGivenCost() {
        let queue = MessageQueue()
        queue.push(counted: [(.message(MessageQueueTests.request(1)), 123, false), (.message(Self.cancel(1)), 7, true)])
        #expect(queue.queuedBytes == 130)
        #expect(queue.withPending { pending, hasCancels in pending.count == 2 && hasCancels })
        _ = queue.pop()
        _ = queue.pop()
        #expect(queue.queuedBytes == 0)
    }

    /// The parser's count of what a message takes, which the queue weighs
    /// it by, is at least the tree's footprint and at most a constant more:
    /// it bounds what queued messages hold as the tree walk did.
    @Test func theParsersFootprintIsTheTreesFootprint() throws {
        var random = 0x5EED as UInt64
        for length in [0, 1, 10, 100, 2_000] {
            random = random &* 6364136223846793005 &+ 1442695040888963407
            let text = #"{"jsonrpc":"2.0","id":\#(random >> 33),"method":"select","params":{"source":"\#(String(repeating: "s", count: length))","ids":["a","\#(String(repeating: "b", count: length))"],"n":[1,2.5,null,true,{}]}}"#
            let (value, footprint) = try JSONParser.parseCountingFootprint(Array(text.utf8))
            #expect(value == (try JSONParser.parse(text)))
            #expect(footprint >= value.footprint && footprint - value.footprint <= 1024,
                    "length \(length): \(footprint) vs \(value.footprint)")
        }
    }
}
