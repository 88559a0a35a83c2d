/// A validated JSON-RPC 2.0 request or notification.
package struct Envelope {
    /// nil for a notification (no `id` member at all); `.null` is a valid id.
    package var id: JSON?
    package var method: String
    package var params: JSON?

    package struct Failure: Error {
        package var id: JSON
        package var error: RPCError
    }

    package static func parse(_ message: JSON) -> Result<Envelope, Failure> {
        guard case .object(let object) = message else {
            return .failure(Failure(id: .null, error: invalid("a request must be a JSON object")))
        }
        var id: JSON?
        if let rawID = object["id"] {
            switch rawID {
            case .string, .number, .null: id = rawID
            default:
                return .failure(Failure(id: .null, error: invalid("id must be a string, a number or null")))
            }
        }
        let replyID = id ?? .null
        guard case .string("2.0")? = object["jsonrpc"] else {
            return .failure(Failure(id: replyID, error: invalid("\"jsonrpc\" must be exactly \"2.0\"")))
        }
        guard case .string(let method)? = object["method"] else {
            return .failure(Failure(id: replyID, error: invalid("\"method\" must be a string")))
        }
        // `"params": null` is what pygls and Emacs's jsonrpc.el send for
        // methods without params: the same as no params at all.
        var params = object["params"]
        if case .null? = params { params = nil }
        switch params {
        case nil, .array?, .object?: break
        default:
            return .failure(Failure(id: replyID, error: invalid("\"params\" must be an object or an array")))
        }
        return .success(Envelope(id: id, method: method, params: params))
    }

    private static func invalid(_ why: String) -> RPCError {
        RPCError(code: ErrorCode.invalidRequest, message: "Invalid Request: \(why)")
    }
}
