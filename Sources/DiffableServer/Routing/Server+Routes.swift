import DiffableEngine
import DiffableProtocol

extension Server {
    /// Decodes a request's params (unless they were decoded ahead) and
    /// answers it.
    typealias Handler = (Server, JSON?, _ decodedAhead: (any RequestType)?) throws(RPCError) -> JSON

    /// Every request method, by name: its typed request (in
    /// `DiffableProtocol/Requests/`), decoded once, and the handler that
    /// answers it (in `Methods/`). Immutable after initialization, so sharing
    /// it is safe.
    nonisolated(unsafe) static let requestHandlers: [String: Handler] = Dictionary(uniqueKeysWithValues: [
        route(InitializeRequest.self) { s, r throws(RPCError) in try s.initialize(r) },
        route(ShutdownRequest.self) { s, r throws(RPCError) in try s.shutdown(r) },
        route(ApplyRequest.self) { s, r throws(RPCError) in try s.apply(r) },
        route(EditRequest.self) { s, r throws(RPCError) in try s.edit(r) },
        route(SnapshotRequest.self) { s, r throws(RPCError) in try s.snapshot(r) },
        route(SourcesRequest.self) { s, r throws(RPCError) in try s.listSources(r) },
        route(DropRequest.self) { s, r throws(RPCError) in try s.drop(r) },
        route(SelectRequest.self) { s, r throws(RPCError) in try s.select(r) },
        route(SelectionRequest.self) { s, r throws(RPCError) in try s.selectionQuery(r) },
        route(SetSelectionModeRequest.self) { s, r throws(RPCError) in try s.setSelectionMode(r) },
        route(SearchRequest.self) { s, r throws(RPCError) in try s.search(r) },
        route(HighlightsRequest.self) { s, r throws(RPCError) in try s.highlights(r) },
        route(ViewportRequest.self) { s, r throws(RPCError) in try s.viewport(r) },
        route(RowsRequest.self) { s, r throws(RPCError) in try s.rows(r) },
        route(ExpandRequest.self) { s, r throws(RPCError) in try s.expand(r) },
        route(CollapseRequest.self) { s, r throws(RPCError) in try s.collapse(r) },
        route(OutlineRequest.self) { s, r throws(RPCError) in try s.outlineQuery(r) },
    ])

    /// A method's entry: decode its params into `R` (or take the `search`
    /// decoded ahead by `cancellation(for:…)`), then call `handle`.
    private static func route<R: RequestType>(
        _ type: R.Type, _ handle: @escaping (Server, R) throws(RPCError) -> JSON
    ) -> (String, Handler) {
        (R.method, { server, params, ahead throws(RPCError) in
            if let ahead, let typed = ahead as? R { return try handle(server, typed) }
            return try handle(server, try R(params: params, context: server))
        })
    }
}

extension Server: DecodingContext {
    package func heldSections(of source: String) -> [Section] {
        recyclesItems ? sources[source]?.snapshot.sections ?? [] : []
    }
    package func heldOutline(of source: String) -> Outline { sources[source]?.outline ?? Outline() }
}
