import DiffableEngine

/// A JSON-RPC request method: its name on the wire and its params, decoded
/// once from the message into typed values. Each method has one such type,
/// in its own file here (`XRequest.swift`); the daemon registers one handler
/// per type (`DiffableServer/Routing/Server+Routes.swift`).
///
/// Decoding checks everything the params alone decide: an unknown member,
/// a missing or mistyped one, a value out of range. Each such failure is
/// -32602 with `data.path` naming the member. What depends on the daemon's
/// state (an unknown source, a version conflict, an unknown id) is the
/// handler's to check, after decoding.
package protocol RequestType {
    /// The method's name on the wire.
    static var method: String { get }
    /// Decodes `params` (nil when the message has none).
    /// `context` is what a decoder may read of the daemon's state: to save
    /// work (an `apply` reuses the held items it re-sends unchanged, which
    /// changes nothing decoded), and for what a request leaves unsaid (a
    /// nested item that names no `expanded` keeps its held state).
    init(params: JSON?, context: any DecodingContext) throws(RPCError)
}

/// What decoding may read of the daemon's state: only what lets a decoder
/// reuse what the daemon already holds.
package protocol DecodingContext {
    /// The sections `source` holds now (none for a new source).
    func heldSections(of source: String) -> [Section]
    /// The outline `source` holds now (its items' expansion state).
    func heldOutline(of source: String) -> Outline
}

/// A context with nothing held (tests, and decoders that need none).
package struct NoHeldState: DecodingContext {
    package init() {}
    package func heldSections(of source: String) -> [Section] { [] }
    package func heldOutline(of source: String) -> Outline { Outline() }
}

extension Params {
    /// `form: "batch" | "steps"`; nil: the session's default.
    package func optionalForm() throws(RPCError) -> DiffForm? {
        try optionalEnum("form", ["batch", "steps"]).flatMap(DiffForm.init(rawValue:))
    }

    /// `echo: "full" | "ids"` as "echo the content" (true) or not; nil: the session's default.
    package func optionalEcho() throws(RPCError) -> Bool? {
        try optionalEnum("echo", ["full", "ids"]).map { $0 == "full" }
    }

    /// `updates: "content" | "patch"` as "patch" (true) or not; nil: the session's default.
    package func optionalUpdates() throws(RPCError) -> Bool? {
        try optionalEnum("updates", ["content", "patch"]).map { $0 == "patch" }
    }

    /// A list of strings at `key` (`ids`, `sections`), each checked.
    package func strings(_ key: String, required: Bool) throws(RPCError) -> [String]? {
        let list: [JSON]
        if required {
            list = try array(key)
        } else {
            guard let present = try optionalArray(key) else { return nil }
            list = present
        }
        var out: [String] = []
        out.reserveCapacity(list.count)
        for (index, value) in list.enumerated() {
            guard case .string(let s) = value else { throw wrongType("\(key)[\(index)]", "a string") }
            out.append(s)
        }
        return out
    }
}
