import DiffableProtocol
extension Server {
    /// The -32700 response for a message body that is not JSON.
    public func parseErrorResponse(_ description: String) -> [UInt8] {
        JSONWriter.bytes(Self.errorResponse(id: .null, RPCError(
            code: ErrorCode.parseError,
            message: "Parse error: \(description). The message was ignored; the server is still running.")))
    }

    /// A RequestCancelled response when `message` is a request made moot by a
    /// message queued after it: a `$/cancelRequest` naming its id, or — for a
    /// `search` — a newer `search` of the same source queued as the very next
    /// request (typing outran the daemon: only the latest keystroke matters).
    /// Returns nil when the request must be handled.
    /// - Complexity: O(1) unless a `$/cancelRequest` is queued (`hasCancels`),
    ///   then O(queued messages).
    func cancellation<Pending: Collection>(for message: JSON, pendingLater: Pending, hasCancels: Bool) -> JSON?
    where Pending.Element: QueuedMessage {
        guard case .object(let object) = message, let id = object["id"],
              case .string(let method)? = object["method"], phase == .running else { return nil }
        var mayBeSuperseded = supersedeSearches && method == SearchRequest.method
        for event in pendingLater {
            guard hasCancels || mayBeSuperseded else { return nil }
            guard case .object(let later)? = event.queuedMessage, case .string(let laterMethod)? = later["method"] else { continue }
            if laterMethod == "$/cancelRequest", later["id"] == nil,
               case .object(let p)? = later["params"], p["id"] == id {
                decodedAhead.drop()
                return Self.errorResponse(id: id, RPCError(
                    code: ErrorCode.requestCancelled,
                    message: "Request cancelled by $/cancelRequest before it ran; nothing was changed.",
                    data: .object(JSONObject([("method", .string(method))]))))
            }
            if mayBeSuperseded, let laterID = later["id"] {
                // Only the very next request can supersede a search: anything
                // in between must observe the search's effect. And only if it
                // will itself be applied: valid now (nothing runs between the
                // two) and not cancelled, else the frontend would keep a
                // stale list.
                mayBeSuperseded = false
                if laterMethod == SearchRequest.method, case .object(let params)? = object["params"], let name = params["source"],
                   case .object(let laterParams)? = later["params"], laterParams["source"] == name,
                   let laterSearch = try? SearchRequest(params: .object(laterParams), context: self),
                   (try? searchPlan(laterSearch)) != nil,
                   !(hasCancels && Self.isCancelQueued(for: laterID, in: pendingLater)) {
                    // Kept for its turn, which comes next: it is not decoded again.
                    decodedAhead.keep(laterSearch, id: laterID)
                    return Self.errorResponse(id: id, RPCError(
                        code: ErrorCode.requestCancelled,
                        message: "Superseded by a newer search of the same source; nothing was changed.",
                        data: .object(JSONObject([("method", .string(method)), ("supersededBy", later["id"] ?? .null)]))))
                }
            }
        }
        return nil
    }

    private static func isCancelQueued<Pending: Collection>(for id: JSON, in pending: Pending) -> Bool
    where Pending.Element: QueuedMessage {
        pending.contains { event in
            guard case .object(let message)? = event.queuedMessage, message["method"] == .string("$/cancelRequest"),
                  message["id"] == nil, case .object(let params)? = message["params"] else { return false }
            return params["id"] == id
        }
    }
}

/// Something queued behind the request being handled, as
/// `cancellation(for:…)` reads it: the message, if it is one. The session's
/// queue (`Transport/`) provides these; the server knows no queue.
protocol QueuedMessage {
    var queuedMessage: JSON? { get }
}
