/// A JSON-RPC error response: code, human-actionable message, optional data
/// naming the offending ids or paths.
public struct RPCError: Error, Equatable, Sendable {
    public var code: Int
    public var message: String
    public var data: JSON?

    public init(code: Int, message: String, data: JSON? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    public var json: JSON {
        var members: [(String, JSON)] = [("code", .int(code)), ("message", .string(message))]
        if let data { members.append(("data", data)) }
        return .object(JSONObject(members))
    }
}

/// Every error code the daemon sends. The daemon's own codes are positive,
/// outside the ranges JSON-RPC (-32768…-32000) and LSP (-32899…-32800) reserve.
public enum ErrorCode {
    // JSON-RPC 2.0
    public static let parseError = -32700
    public static let invalidRequest = -32600
    public static let methodNotFound = -32601
    public static let invalidParams = -32602
    public static let internalError = -32603
    // LSP
    public static let serverNotInitialized = -32002
    public static let requestCancelled = -32800
    // diffable
    /// The named source does not exist.
    public static let unknownSource = 1001
    /// `baseVersion` is not the source's current version.
    public static let versionConflict = 1002
    /// An id named by the request is not in the source.
    public static let unknownID = 1003
    /// An `edit` op cannot be applied (see `data.op` and `data.reason`).
    public static let invalidEdit = 1004
    /// A `select` request breaks a section's selection policy.
    public static let selectionRejected = 1005
    /// A message over `--max-message-bytes`, skipped unread. Its own code,
    /// not -32600 (which says the request is malformed): the request may be
    /// perfectly valid, and a client that recognizes this code knows to
    /// split it. Transport codes start at 1010, clear of request codes.
    public static let messageTooLarge = 1010
}

extension RPCError {
    package static func invalidParams(_ message: String, data: JSON? = nil) -> RPCError {
        RPCError(code: ErrorCode.invalidParams, message: message, data: data)
    }

    package static func unknownSource(_ name: String) -> RPCError {
        RPCError(
            code: ErrorCode.unknownSource,
            message: "No source named \"\(name)\". Create it with `apply`, or list sources with `sources`.",
            data: .object(JSONObject([("source", .string(name))])))
    }
}
