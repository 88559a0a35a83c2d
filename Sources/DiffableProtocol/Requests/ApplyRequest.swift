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

    /// Read by the one `apply` reader, from the params written back as
    /// bytes (`ApplyRequest.decode`): a small `apply`, or one in a batch,
    /// came as a tree. Params that are not an object, and unknown members,
    /// are refused first, as for every method.
    /// - Complexity: O(size of the params).
    package init(params: JSON?, context: any DecodingContext) throws(RPCError) {
        guard var request = try Self.decode(LazyParams(writingBack: params, accepting: Self.members), context: context,
                                            checkpoint: { _ in true })
        else { throw Self.unreadable }
        request.byteRead = nil
        self = request
    }

    /// Decodes a request from its bytes (`ApplyScanner`: items read in
    /// parallel parts, unchanged ones reused from `context`, pages given
    /// back as they are read; an item it does not take is parsed alone and
    /// decoded by the codec). The members are checked in order, then the
    /// problems of the sections, then duplicate ids. `checkpoint` is told
    /// the share of the items read and answers false to stop: then the
    /// answer is nil.
    /// - Complexity: O(bytes).
    package static func decode(_ lazy: LazyParams, context: any DecodingContext,
                               checkpoint: (Double) -> Bool) throws(RPCError) -> ApplyRequest? {
        var stopped = false
        let read = ApplyScanner.decode(lazy, previous: { context.heldSections(of: $0) }) { fraction in
            if !checkpoint(fraction) { stopped = true }
            return !stopped
        }
        if stopped { return nil }
        guard let decoded = read else { throw Self.unreadable }
        // Everything is read: the request's bytes go before the ids are
        // checked and the response is made (they are about as large as the
        // source's items).
        let requestBytes = lazy.body.count
        let wasCopied = lazy.bytesWereCopied
        lazy.releaseBody()
        let params = decoded.params
        try params.checkMembers(Self.members)
        let source = try params.sourceName()
        let form = try params.optionalForm()
        let baseVersion = try params.optionalCount("baseVersion")
        _ = try params.array("sections")
        if let error = decoded.error { throw error }
        let path = ApplyScanner.sectionsPath
        let parentRows = decoded.nesting.map { $0?.parentRow }
        let snapshot = try SnapshotCodec.validated(
            decoded.sections, path: path,
            itemPath: decoded.isNested ? OutlineCodec.itemPaths(path, parentRows: parentRows) : nil)
        let policies = try SelectionCodec.policies(inSections: decoded.sectionObjects, path: path)
        let outline = decoded.isNested
            ? Outline(preorder: snapshot, parentRows: parentRows,
                      expandedFlags: decoded.nesting.map { $0?.expanded ?? [:] }, previous: context.heldOutline(of: source))
            : Outline()
        var request = try ApplyRequest(source: source, snapshot: snapshot, outline: outline, policies: policies,
                                       baseVersion: baseVersion, form: form, params: params)
        request.arenaUse = decoded.arenaUse
        request.byteRead = ByteRead(requestBytes: requestBytes, givenBack: decoded.releasedByteCount, wasCopied: wasCopied)
        return request
    }

    private static let unreadable = RPCError(
        code: ErrorCode.internalError,
        message: "Internal error: the apply's params passed validation but could not be read; nothing was changed.")

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
