import Dispatch
import DiffableEngine
import DiffableProtocol

/// The JSON-RPC server: what it holds between messages (the data sources,
/// the phase, the session's options) and the helpers every handler uses.
/// Its lifecycle and dispatch are in `../Routing`, one handler per method in
/// `../Methods`. It handles one message at a time, in arrival order; it does
/// no I/O (see `StdioSession`).
public final class Server {
    // The state read by every request is marked `@exclusivity(unchecked)`:
    // one thread (the handler) touches it, one access at a time, and the
    // runtime check would otherwise be paid several times per request.
    enum Phase {
        case awaitingInitialize
        case running
        case shutDown
    }

    @exclusivity(unchecked) var phase = Phase.awaitingInitialize
    @exclusivity(unchecked) var sources: [String: DataSource] = [:]
    /// The diff form used when a request does not name one.
    var defaultForm = DiffForm.batch
    /// Answer a `search` with -32800 when a newer `search` of the same source
    /// is already queued (initializationOptions.supersedeSearches).
    var supersedeSearches = true
    /// `echo: "full"` (true) or `"ids"` (false): whether rows the client
    /// itself just sent (`apply`, `edit`) carry their content back.
    var echoContent = true
    /// `updates: "patch"` (true) or `"content"` (false): whether reloads of
    /// rows the frontend holds carry a JSON Patch of their content.
    var patchUpdates = false
    /// Whether `apply` may reuse held items re-sent byte for byte
    /// (`ItemRecycler`); tests turn it off to compare against every item
    /// read anew.
    var recyclesItems = true
    /// What a request replaced, kept so that the session can free it after
    /// the response is sent (freeing a large snapshot's items, or the search
    /// index of an earlier list, is work the client need not wait for).
    /// Without a session it is dropped after each message.
    var retired: [Retired] = []
    let logger: Logger

    /// The editor's process (`initialize`'s `processId`): when it is gone the
    /// session ends (see `StdioSession`), so a crashed editor leaves no orphan.
    public internal(set) var parentProcessID: Int32?

    /// Where notifications to the client go (`$/progress`); set by the
    /// session. Without one, nothing is sent.
    public var notificationSink: ((JSON) -> Void)?
    /// Set by the session for the request about to be handled; a
    /// `$/cancelRequest` that arrives while it runs sets it.
    @exclusivity(unchecked) public var cancellation: CancellationFlag?
    /// Progress and safe points of the request being handled.
    @exclusivity(unchecked) var work = WorkProgress()
    /// The exact pass of the last `search` answered partially, until it is
    /// sent or dropped (`Search+Progressive.swift`).
    var refinement: Refinement?
    /// The next request, when it was decoded early (see `DecodedAhead`).
    /// Read and written by the handler thread alone, one access at a time,
    /// so the per-request runtime exclusivity check is left out.
    @exclusivity(unchecked) var decodedAhead = DecodedAhead()
    /// How long a progressive `search` waits for its exact answer before
    /// answering partially, in seconds (initializationOptions.progressiveBudget, in ms).
    var progressiveBudget = 0.008
    /// Set by the session: called on a worker thread when a refinement is
    /// ready, so that it is sent while the daemon waits for input.
    public var wake: (@Sendable () -> Void)?

    /// Set when `exit` arrives: 0 after `shutdown`, 1 otherwise.
    public internal(set) var exitCode: Int32?

    public init(logger: Logger = Logger()) {
        self.logger = logger
    }

    // MARK: helpers for handlers

    /// Milliseconds from `start` (a `DispatchTime` uptime) to `end` or now,
    /// written with one decimal and the unit, for debug log lines.
    static func milliseconds(since start: UInt64, until end: UInt64 = DispatchTime.now().uptimeNanoseconds) -> String {
        let tenths = (end &- start) / 100_000
        return "\(tenths / 10).\(tenths % 10) ms"
    }


    func existingSource(_ name: String) throws(RPCError) -> DataSource {
        guard let source = sources[name] else { throw .unknownSource(name) }
        return source
    }

    func checkBaseVersion(_ base: Int?, of source: DataSource) throws(RPCError) {
        guard let base, base != source.version else { return }
        throw RPCError(
            code: ErrorCode.versionConflict,
            message: "Version conflict on \"\(source.name)\": baseVersion is \(base) but the source is at version \(source.version). Fetch `snapshot` and retry; nothing was changed.",
            data: .object(JSONObject([
                ("source", .string(source.name)), ("baseVersion", .int(base)), ("currentVersion", .int(source.version)),
            ])))
    }

    /// What the reply to a change of `source` patches from, taken before
    /// the change: the window rows the frontend holds (window `update`
    /// rows patch from them); nil without `updates: "patch"`.
    func patchBase(_ source: DataSource?, _ patches: Bool) -> [WindowRow]? {
        patches ? source?.window?.heldRows ?? [] : nil
    }

    /// The common result of every request that changes a source: the diff in
    /// the window form when the source has a viewport, else in `form`.
    /// `echo` names the rows whose content the request itself carried.
    /// `viewportRemoved`: the request's own `viewport: null` ended the
    /// window; the answer is `window: null` (the frontend reloads the whole
    /// list with `snapshot`: a diff would refer to rows it never held).
    /// `patchBase` (see `patchBase(_:_:)`): reloads carry patches.
    func diffResult(_ source: DataSource, _ update: DataSource.Update, form: DiffForm, echo: EchoedContent = .none,
                    patchBase: [WindowRow]? = nil, viewportRemoved: Bool = false, extra: [(String, JSON)] = []) -> JSON {
        // A large replaced snapshot is freed in the background; an edit made
        // in place left none (`oldVisible` is the source's own).
        defer { if update.contentsBefore == nil, update.oldVisible.itemCount >= 4096 { retired.append(.snapshot(update.oldVisible)) } }
        let diff: (key: String, value: JSON)
        if viewportRemoved {
            diff = ("window", .null)
        } else if let window = update.window {
            diff = ("window", WindowCodec.encode(window, omitting: echo, placeholder: source.placeholderID, patchingFrom: patchBase))
        } else {
            diff = DiffEncoding.encode(update.changeset, form: form, old: update.oldVisible, new: update.newVisible,
                                       echo: ItemEncoding(omitted: echo, exception: source.placeholderID,
                                                          outline: source.outline.isEmpty ? nil : source.outline),
                                       patches: patchBase != nil, contentsBefore: update.contentsBefore)
        }
        var members: [(String, JSON)] = [("source", .string(source.name)), ("version", .int(source.version)), (diff.key, diff.value)]
        // Selected rows follow their items; report where they are now when
        // anything moved, and what the change deselected.
        // Only members that say something: no empty `selection`.
        if !update.selection.isEmpty || (source.selection.selectedCount > 0 && (!update.changeset.isEmpty || update.visibleDiffOmitted)) {
            let rows = source.selection.selectedPaths(in: source.visible)
            let selection = SelectionCodec.encode(update.selection, rows: rows)
            if case .object(let object) = selection, !object.isEmpty { members.append(("selection", selection)) }
        }
        return .object(JSONObject(members + extra))
    }
}

/// A value a request replaced, freed after its response (`Server.retired`).
enum Retired: Sendable {
    case snapshot(Snapshot)
    /// A source's state before the request: what the request replaced of
    /// it (a search index of an earlier list, match sets, a sample) is
    /// freed with it.
    case source(DataSource)
}
