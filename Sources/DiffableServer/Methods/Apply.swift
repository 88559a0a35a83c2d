import DiffableEngine
import Dispatch
import DiffableProtocol

extension Server {
    /// `apply`: the source becomes the request's snapshot (created if
    /// needed) → the diff from the previous visible snapshot to the new one.
    /// All-or-nothing: any invalid input leaves the source untouched.
    func apply(_ request: ApplyRequest) throws(RPCError) -> JSON {
        if let read = request.byteRead {
            logger.log(.debug, "apply \(request.source): read \(read.requestBytes) bytes into \(request.snapshot.itemCount) items, "
                       + "giving back \(read.givenBack / 1024) KiB of them as it read"
                       + (read.wasCopied ? " (of a copy: the request's bytes were shared)" : ""))
        }
        return try apply(request.source, form: request.form ?? defaultForm, baseVersion: request.baseVersion,
                         snapshot: request.snapshot, policies: request.policies, viewport: request.viewport,
                         echo: request.echo ?? echoContent, patches: request.updates ?? patchUpdates,
                         outline: request.outline, arenaUse: request.arenaUse)
    }

    /// `apply` of a large request, decoded straight from its bytes
    /// (`ApplyRequest.decode`); reading the items is most of its work, so
    /// progress is reported and a cancel honoured while they are read.
    func apply(lazy: LazyParams) throws(RPCError) -> JSON {
        let started = DispatchTime.now().uptimeNanoseconds
        let decoded = try ApplyRequest.decode(lazy, context: self) { fraction in
            (try? work.step(Int(fraction * Self.readingShare), "reading items")) != nil
        }
        try work.checkCancelled()
        guard let request = decoded else {  // stopped by a cancel, which `checkCancelled` just saw
            throw RPCError(code: ErrorCode.requestCancelled,
                           message: "Request cancelled by $/cancelRequest while it ran; nothing was changed.")
        }
        logger.log(.debug, "apply \(request.source): decoded in " + Self.milliseconds(since: started))
        return try apply(request)
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

    /// The part of an apply's progress spent reading its items.
    static let readingShare = 70.0
}
