import DiffableEngine
import DiffableProtocol

/// Dispatch: from a message to its method's route, and the responses.
extension Server {
    /// Methods whose params may carry LSP's `workDoneToken` (all that take params).
    static let takesProgress: Set<String> = Set(requestHandlers.keys).subtracting(["initialize", "shutdown", "sources"])

    /// Names reported in `initialize`'s capabilities.
    static var methodNames: [String] { requestHandlers.keys.sorted() }

    // MARK: entry points

    /// Handles one message body (a JSON text); returns the response body to
    /// send, or nil when nothing is to be sent (notifications).
    public func handle(body: [UInt8]) -> [UInt8]? {
        handle(body: body, lazyFrom: Self.smallestLazyBody)
    }

    /// `handle(body:)`, splitting off the params of bodies of at least
    /// `lazyFrom` bytes (see `LazyRequest`); tests lower it to 0,
    /// `hintSpacing` to read small arrays in parts, and give a `release`
    /// that zeroes what the decoder gives back.
    func handle(body: [UInt8], lazyFrom: Int, hintSpacing: Int? = nil, release: ReleasedRuns.Mode? = nil) -> [UInt8]? {
        if body.count >= lazyFrom,
           let (envelope, params) = LazyRequest.split(body, methods: Self.lazyParamsMethods,
                                                              minimumSizes: lazyFrom == Self.smallestLazyBody ? Self.lazyBodyMinimum : [:],
                                                              hintSpacing: hintSpacing, release: release) {
            defer { retired.removeAll() }
            return handle(message: envelope, lazyParams: params).map(JSONWriter.bytes)
        }
        let message: JSON
        do {
            message = try JSONParser.parse(body)
        } catch {
            return parseErrorResponse("\(error)")
        }
        defer { retired.removeAll() }
        return handle(message: message).map(JSONWriter.bytes)
    }

    /// A message that could not even be framed (bad headers).
    public func framingError(_ description: String) -> [UInt8] {
        JSONWriter.bytes(Self.errorResponse(id: .null, RPCError(
            code: ErrorCode.parseError,
            message: "Unreadable message: \(description). The server is still running.")))
    }

    /// A message over the size limit, skipped unread; `id` is the request's
    /// when it was found at the start of the message, else `.null`.
    public func messageTooLarge(id: JSON, size: Int, limit: Int) -> JSON {
        Self.errorResponse(id: id, RPCError(
            code: ErrorCode.messageTooLarge,
            message: "Message of \(size) bytes is over the limit of \(limit) bytes (--max-message-bytes); it was skipped and the server is still running. Send smaller requests (an apply split into an apply and edits), or start the daemon with a larger --max-message-bytes.",
            data: .object(JSONObject([("limit", .int(limit)), ("size", .int(size))]))))
    }

    /// Handles a parsed message: a single request/notification or a batch.
    public func handle(message: JSON) -> JSON? {
        handle(message: message, lazyParams: nil)
    }

    /// `lazyParams`: the `params` of a single request, still bytes (see
    /// `LazyRequest`); `message` then carries an empty object in their place.
    func handle(message: JSON, lazyParams: LazyParams?) -> JSON? {
        settleRefinement(before: message)
        guard case .array(let batch) = message else {
            return handleSingle(message, lazyParams: lazyParams)
        }
        guard !batch.isEmpty else {
            return Self.errorResponse(id: .null, RPCError(
                code: ErrorCode.invalidRequest, message: "Invalid Request: an empty batch"))
        }
        let responses = batch.compactMap { handleSingle($0, lazyParams: nil) }
        return responses.isEmpty ? nil : .array(responses)
    }

    // MARK: single messages

    func handleSingle(_ message: JSON, lazyParams: LazyParams?) -> JSON? {
        let envelope: Envelope
        switch Envelope.parse(message) {
        case .success(let parsed): envelope = parsed
        case .failure(let failure):
            // A message without an `id` is a notification and is never
            // answered, whatever is wrong with it: say so on stderr instead.
            if case .object(let object) = message, object["id"] == nil {
                logger.log(.warning, "ignored a malformed notification: \(failure.error.message)")
                return nil
            }
            return Self.errorResponse(id: failure.id, failure.error)
        }
        guard let id = envelope.id else {
            handleNotification(envelope.method, envelope.params)
            return nil
        }
        let ahead = decodedAhead.take(for: id)
        do throws(RPCError) {
            return Self.resultResponse(id: id, try handleRequest(envelope.method, envelope.params, lazyParams: lazyParams,
                                                                 decodedAhead: ahead))
        } catch {
            logger.log(.info, "\(envelope.method) failed: \(error.code) \(error.message)")
            return Self.errorResponse(id: id, error)
        }
    }

    /// `decodedAhead`: the request's params, when they were decoded before
    /// its turn (see `DecodedAhead`).
    func handleRequest(_ method: String, _ params: JSON?, lazyParams: LazyParams? = nil,
                       decodedAhead: (any RequestType)? = nil) throws(RPCError) -> JSON {
        switch phase {
        case .awaitingInitialize where method != "initialize":
            throw RPCError(code: ErrorCode.serverNotInitialized,
                           message: "Server not initialized: send `initialize` first.")
        case .shutDown:
            throw RPCError(code: ErrorCode.invalidRequest,
                           message: "The server is shutting down: only the `exit` notification is accepted.")
        default:
            break
        }
        if method == InitializeRequest.method, phase != .awaitingInitialize {
            throw RPCError(code: ErrorCode.invalidRequest, message: "Invalid Request: `initialize` was already received")
        }
        guard let handler = Self.requestHandlers[method] else {
            // A typo (`aply`) gets the method it most likely meant.
            let guess = method.hasPrefix("$/") ? nil : Params.closest(to: method, in: Array(Self.requestHandlers.keys).sorted())
            throw RPCError(code: ErrorCode.methodNotFound,
                           message: "Method not found: \(method)" + (guess.map { " (did you mean \"\($0)\"?)" } ?? ""),
                           data: .object(JSONObject([("method", .string(method))] + (guess.map { [("suggestion", .string($0))] } ?? []))))
        }
        // Methods without params refuse the token as an unknown member.
        var token = lazyParams?.workDoneToken ?? params?["workDoneToken"]
        if token != nil, !Self.takesProgress.contains(method) { token = nil }
        if let token {
            switch token {
            case .string: break
            case .number where token.intValue != nil: break
            default:
                throw .invalidParams("params.workDoneToken must be a string or an integer (LSP's ProgressToken)",
                                     data: Params.pathData("params.workDoneToken"))
            }
        }
        work = WorkProgress(token: token, sink: notificationSink, cancellation: cancellation)
        work.begin(method)
        defer {
            work.end()
            cancellation = nil
        }
        guard let lazyParams else { return try handler(self, params, decodedAhead) }
        if method == ApplyRequest.method { return try apply(lazy: lazyParams) }
        if method == EditRequest.method { return try edit(EditRequest.decode(lazyParams, context: self)) }
        return try handler(self, lazyParams.tree(), nil)
    }

    /// Methods whose large params the transport may leave as bytes
    /// (`LazyRequest.split`), decoded from them: `apply` (`apply(lazy:)`)
    /// and `edit` (`EditRequest.decode`: a list streaming in as large
    /// `appendItems` batches).
    static let lazyParamsMethods: Set<String> = [ApplyRequest.method, EditRequest.method]
    /// The smallest body of each of them that is read from its bytes: an
    /// `apply` from 64 KiB (smaller ones are cheap as trees); an `edit` from
    /// 1 KiB, so a tick of a hundred `patchContent` ops builds no tree.
    static let lazyBodyMinimum: [String: Int] = [ApplyRequest.method: LazyRequest.minimumBodySize, EditRequest.method: 1 << 10]
    static let smallestLazyBody = 1 << 10

    func handleNotification(_ method: String, _ params: JSON?) {
        switch method {
        case "exit":
            exitCode = phase == .shutDown ? 0 : 1
        case "initialized":
            break
        default:
            // Unknown notifications (including `$/…` ones) are ignored, as LSP asks.
            logger.log(.debug, "ignored notification \(method)")
        }
    }

    // MARK: responses

    static func resultResponse(id: JSON, _ result: JSON) -> JSON {
        .object(JSONObject(members: [(key: "jsonrpc", value: .string("2.0")), (key: "id", value: id), (key: "result", value: result)]))
    }

    static func errorResponse(id: JSON, _ error: RPCError) -> JSON {
        .object(JSONObject(members: [(key: "jsonrpc", value: .string("2.0")), (key: "id", value: id), (key: "error", value: error.json)]))
    }
}
