import DiffableEngine
import Dispatch
import DiffableProtocol

extension Server {
    /// `apply {source, sections, baseVersion?, form?, viewport?, echo?,
    /// updates?}` (sections may carry
    /// `selection`/`allowsEmptySelection` policies) → the diff from the
    /// previous visible snapshot to the new one. Creates the source if needed.
    /// All-or-nothing: any invalid input leaves the source untouched.
    func apply(_ raw: JSON?) throws(RPCError) -> JSON {
        let params = try Params(raw, accepting: Self.applyMembers)
        let name = try params.sourceName()
        let form = try form(params)
        let baseVersion = try params.optionalCount("baseVersion")
        let sections = try params.array("sections")
        var snapshot: Snapshot, outline = Outline()
        if OutlineCodec.isNested(sections) {
            (snapshot, outline) = try OutlineCodec.decode(sections, path: "params.sections",
                                                          previous: sources[name]?.outline ?? Outline())
        } else {
            snapshot = try SnapshotCodec.decodeSnapshot(sections, path: "params.sections")
        }
        let policies = try SelectionCodec.policies(inSections: sections, path: "params.sections")
        return try apply(name, form: form, baseVersion: baseVersion, snapshot: snapshot, policies: policies,
                         viewport: try WindowCodec.viewport(params), echo: try echoContent(params), patches: try patchUpdates(params),
                         outline: outline)
    }

    /// `apply` of a large request, decoded straight from its bytes when
    /// `ApplyScanner` understands them, else through the tree path. Both give
    /// the same results and the same errors in the same order.
    func apply(lazy: LazyParams) throws(RPCError) -> JSON {
        // Reading the items is most of a large apply: report and stop there.
        let started = DispatchTime.now().uptimeNanoseconds
        let decodedOrStopped = ApplyScanner.decode(lazy, previous: { sources[$0]?.snapshot.sections ?? [] }) { fraction in
            (try? work.step(Int(fraction * Self.readingShare), "reading items")) != nil
        }
        try work.checkCancelled()
        guard let decoded = decodedOrStopped else { return try apply(lazy.tree()) }
        let requestSize = lazy.body.count
        // Everything is read: the request's bytes go before the ids are
        // checked and the response is made (they are about as large as the
        // source's items). Only a nested request may still
        // need them, to report a duplicate at its place in the tree.
        if !decoded.isNested { lazy.releaseBody() }
        let params = decoded.params
        try params.checkMembers(Self.applyMembers)
        let name = try params.sourceName()
        let form = try form(params)
        let baseVersion = try params.optionalCount("baseVersion")
        _ = try params.array("sections")
        let snapshot: Snapshot
        do throws(RPCError) {
            snapshot = try SnapshotCodec.validated(decoded.sections, path: ApplyScanner.sectionsPath)
        } catch {
            // Duplicate ids among nested items are reported at their place in
            // the request, which the tree path spells.
            if decoded.isNested { return try apply(lazy.tree()) }
            throw error
        }
        let policies = try SelectionCodec.policies(inSections: decoded.sectionObjects, path: ApplyScanner.sectionsPath)
        logger.log(.debug, "apply \(name): read \(requestSize) bytes into \(snapshot.itemCount) items in "
                   + Self.milliseconds(since: started) + ", giving back \(decoded.releasedByteCount / 1024) KiB of them as it read"
                   + (lazy.bytesWereCopied ? " (of a copy: the request's bytes were shared)" : ""))
        lazy.releaseBody()
        let outline = decoded.isNested
            ? Outline(preorder: snapshot, parentRows: decoded.nesting.map { $0?.parentRow },
                      expandedFlags: decoded.nesting.map { $0?.expanded ?? [:] }, previous: sources[name]?.outline ?? Outline())
            : Outline()
        return try apply(name, form: form, baseVersion: baseVersion, snapshot: snapshot, policies: policies,
                         viewport: try WindowCodec.viewport(params), echo: try echoContent(params), patches: try patchUpdates(params),
                         outline: outline, arenaUse: decoded.arenaUse)
    }

    /// `arenaUse`: what the decoded snapshot's contents use of each arena,
    /// recorded once it is the source's (see `ByteArena.isSparse`).
    private func apply(
        _ name: String, form: DiffForm, baseVersion: Int?, snapshot: Snapshot,
        policies: [String: SectionSelectionPolicy], viewport: Viewport??, echo: Bool, patches: Bool, outline: Outline = Outline(),
        arenaUse: ArenaUse? = nil
    ) throws(RPCError) -> JSON {
        var source = sources[name] ?? DataSource(name: name)
        try checkBaseVersion(baseVersion, of: source)
        let patchBase = patchBase(source, patches)
        if let viewport { source.prepareViewport(viewport) }
        try work.step(Int(Self.readingShare), "diffing")
        let started = DispatchTime.now().uptimeNanoseconds
        let update: DataSource.Update
        do throws(SelectionError) {
            update = try source.apply(snapshot, policies: policies, outline: outline)
        } catch {
            throw SelectionCodec.error(error)
        }
        // `source` is a copy until stored: a cancel up to here changes nothing.
        try work.step(85, "encoding the diff")
        let diffed = DispatchTime.now().uptimeNanoseconds
        let result = diffResult(source, update, form: form, echo: echo ? .none : .everyItem, patchBase: patchBase, viewportRemoved: viewport == .some(nil))
        if snapshot.itemCount >= LazyRequest.minimumBodySize / 64 {
            logger.log(.debug, "apply \(name): diffed in " + Self.milliseconds(since: started, until: diffed)
                       + ", encoded in " + Self.milliseconds(since: diffed))
        }
        try work.checkCancelled()
        sources[name] = source
        arenaUse?.record()
        return result
    }

    /// Milliseconds from `start` (a `DispatchTime` uptime) to `end` or now,
    /// written with one decimal and the unit, for debug log lines.
    static func milliseconds(since start: UInt64, until end: UInt64 = DispatchTime.now().uptimeNanoseconds) -> String {
        let tenths = (end &- start) / 100_000
        return "\(tenths / 10).\(tenths % 10) ms"
    }

    static let applyMembers = ["source", "sections", "baseVersion", "form", "viewport", "echo", "updates"]

    /// The part of an apply's progress spent reading its items.
    static let readingShare = 70.0
}
