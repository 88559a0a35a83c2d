import DiffableEngine

/// `apply {source, sections, baseVersion?, form?, viewport?, echo?,
/// updates?}` → the diff from the previous visible snapshot to the new one.
/// Sections may carry `selection`/`allowsEmptySelection` policies and
/// nested items. See protocol/methods/apply.md.
package struct ApplyRequest: RequestType {
    package static let method = "apply"
    package var source: String
    /// The new snapshot, flat (nested items in preorder), ids checked unique.
    package var snapshot: Snapshot
    /// The tree of nested items; empty when none nests.
    package var outline: Outline
    package var policies: [String: SectionSelectionPolicy]
    package var baseVersion: Int?
    package var form: DiffForm?
    package var viewport: Viewport??
    package var echo: Bool?
    package var updates: Bool?
    /// What the decoded contents use of each arena (byte path), recorded
    /// once the snapshot is the source's (see `ByteArena.isSparse`).
    package var arenaUse: ArenaUse?
    /// How a request read from its bytes went (for the daemon's debug log).
    package var byteRead: ByteRead?

    package struct ByteRead {
        package var requestBytes: Int
        package var givenBack: Int
        package var wasCopied: Bool
    }

    package static let members = ["source", "sections", "baseVersion", "form", "viewport", "echo", "updates"]

    /// Decodes a parsed request.
    package init(params: JSON?, context: any DecodingContext) throws(RPCError) {
        let params = try Params(params, accepting: Self.members)
        source = try params.sourceName()
        form = try params.optionalForm()
        baseVersion = try params.optionalCount("baseVersion")
        let sections = try params.array("sections")
        if OutlineCodec.isNested(sections) {
            (snapshot, outline) = try OutlineCodec.decode(sections, path: "params.sections",
                                                          previous: context.heldOutline(of: source))
        } else {
            snapshot = try SnapshotCodec.decodeSnapshot(sections, path: "params.sections")
            outline = Outline()
        }
        policies = try SelectionCodec.policies(inSections: sections, path: "params.sections")
        viewport = try WindowCodec.viewport(params)
        echo = try params.optionalEcho()
        updates = try params.optionalUpdates()
    }

    /// Decodes a large request straight from its bytes (`ApplyScanner`:
    /// items read in parallel parts, unchanged ones reused from
    /// `context`, pages given back as they are read); a request it does
    /// not fully understand is parsed and decoded as above, with the same
    /// results and errors. `checkpoint` is told the share of the items read
    /// and answers false to stop: then the answer is nil.
    /// - Complexity: O(bytes).
    package static func decode(_ lazy: LazyParams, context: any DecodingContext,
                               checkpoint: (Double) -> Bool) throws(RPCError) -> ApplyRequest? {
        var stopped = false
        let read = ApplyScanner.decode(lazy, previous: { context.heldSections(of: $0) }) { fraction in
            if !checkpoint(fraction) { stopped = true }
            return !stopped
        }
        if stopped { return nil }
        guard let decoded = read else { return try ApplyRequest(params: lazy.tree(), context: context) }
        let requestBytes = lazy.body.count
        // Everything is read: the request's bytes go before the ids are
        // checked and the response is made (they are about as large as the
        // source's items). Only a nested request may still need them, to
        // report a duplicate at its place in the tree.
        if !decoded.isNested { lazy.releaseBody() }
        let params = decoded.params
        try params.checkMembers(Self.members)
        let source = try params.sourceName()
        let form = try params.optionalForm()
        let baseVersion = try params.optionalCount("baseVersion")
        _ = try params.array("sections")
        let snapshot: Snapshot
        do throws(RPCError) {
            snapshot = try SnapshotCodec.validated(decoded.sections, path: ApplyScanner.sectionsPath)
        } catch {
            // Duplicate ids among nested items are reported at their place in
            // the request, which the tree path spells.
            if decoded.isNested { return try ApplyRequest(params: lazy.tree(), context: context) }
            throw error
        }
        let policies = try SelectionCodec.policies(inSections: decoded.sectionObjects, path: ApplyScanner.sectionsPath)
        let wasCopied = lazy.bytesWereCopied
        lazy.releaseBody()
        let outline = decoded.isNested
            ? Outline(preorder: snapshot, parentRows: decoded.nesting.map { $0?.parentRow },
                      expandedFlags: decoded.nesting.map { $0?.expanded ?? [:] }, previous: context.heldOutline(of: source))
            : Outline()
        var request = try ApplyRequest(source: source, snapshot: snapshot, outline: outline, policies: policies,
                                       baseVersion: baseVersion, form: form, params: params)
        request.arenaUse = decoded.arenaUse
        request.byteRead = ByteRead(requestBytes: requestBytes, givenBack: decoded.releasedByteCount, wasCopied: wasCopied)
        return request
    }

    private init(source: String, snapshot: Snapshot, outline: Outline, policies: [String: SectionSelectionPolicy],
                 baseVersion: Int?, form: DiffForm?, params: Params) throws(RPCError) {
        self.source = source
        self.snapshot = snapshot
        self.outline = outline
        self.policies = policies
        self.baseVersion = baseVersion
        self.form = form
        viewport = try WindowCodec.viewport(params)
        echo = try params.optionalEcho()
        updates = try params.optionalUpdates()
    }
}
