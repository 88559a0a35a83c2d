import Foundation
import DiffableProtocol

/// Set by the session's reader thread when a `$/cancelRequest` names the
/// request that is running; read by the handler at its safe points.
public final class CancellationFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false

    public init() {}

    public func cancel() {
        lock.lock()
        cancelled = true
        lock.unlock()
    }

    public var isCancelled: Bool {
        lock.lock()
        defer { lock.unlock() }
        return cancelled
    }
}

/// LSP work-done progress and cancellation for the request being handled.
///
/// With a `workDoneToken` in the request's params, `begin` sends
/// `$/progress {token, value: {kind: "begin", title, cancellable: true, percentage: 0}}`,
/// `step` a `report` at most every `interval` (so a long request reports
/// steadily and a quick one only begins and ends), `end` the
/// `end`. Without a token nothing is sent. `step` and `checkCancelled` are
/// the safe points: when a `$/cancelRequest` arrived for this request they
/// throw RequestCancelled before anything was changed.
struct WorkProgress {
    var token: JSON?
    var sink: ((JSON) -> Void)?
    var cancellation: CancellationFlag?
    private var lastReport: UInt64 = 0
    private var began = false
    static let interval: UInt64 = 100_000_000

    init(token: JSON? = nil, sink: ((JSON) -> Void)? = nil, cancellation: CancellationFlag? = nil) {
        switch token {
        case .string?, .number?: self.token = token
        default: self.token = nil
        }
        self.sink = sink
        self.cancellation = cancellation
    }

    mutating func begin(_ title: String) {
        guard token != nil else { return }
        began = true
        lastReport = DispatchTime.now().uptimeNanoseconds
        send([("kind", .string("begin")), ("title", .string(title)), ("cancellable", .bool(true)),
              ("percentage", .int(0))])
    }

    /// A safe point: throws when cancelled; reports `percentage` (0–100) and
    /// `message` when `interval` has passed since the last report.
    mutating func step(_ percentage: Int, _ message: @autoclosure () -> String) throws(RPCError) {
        try checkCancelled()
        guard began else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        guard now &- lastReport >= Self.interval else { return }
        lastReport = now
        send([("kind", .string("report")), ("percentage", .int(max(0, min(100, percentage)))),
              ("message", .string(message()))])
    }

    func checkCancelled() throws(RPCError) {
        guard let cancellation, cancellation.isCancelled else { return }
        throw RPCError(code: ErrorCode.requestCancelled,
                       message: "Request cancelled by $/cancelRequest while it ran; nothing was changed.")
    }

    mutating func end() {
        guard began else { return }
        began = false
        send([("kind", .string("end"))])
    }

    private func send(_ value: [(String, JSON)]) {
        guard let token, let sink else { return }
        sink(.object(JSONObject([
            ("jsonrpc", .string("2.0")), ("method", .string("$/progress")),
            ("params", .object(JSONObject([("token", token), ("value", .object(JSONObject(value)))]))),
        ])))
    }
}
