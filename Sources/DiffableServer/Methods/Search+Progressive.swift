import Dispatch
import DiffableEngine
import DiffableProtocol

/// `search {…, progressive: true}`: an answer within a frame, refined later.
///
/// The exact search starts on a worker thread, on a copy of the source. The
/// handler waits for it up to `progressiveBudget`; when it is done by then,
/// its answer is the reply, as without `progressive`. Otherwise the reply
/// is a partial answer (`DataSource.setSearchPartially`, marked `partial`)
/// and the exact one follows as a `searchRefined` notification, its diff
/// starting from the partial window.
///
/// Order: messages are still handled one at a time. Before the next one, a
/// refinement still pending is finished and sent (waiting for it), unless
/// that message is a `search` of the same source: the newer keystroke
/// drops it (its scan stops at its next check) and starts from the partial
/// answer the frontend holds. A refinement that finishes while the daemon
/// waits for input is sent at once (the session's `wake`).
extension Server {
    /// `search` with `progressive`, for a request `partialSearchApplies` to.
    func progressiveSearch(_ request: SearchPlan, _ source: DataSource,
                           patchBase: [WindowRow]?) throws(RPCError) -> JSON {
        let started = DispatchTime.now().uptimeNanoseconds
        let stop = SearchStop()
        var settings = request.settings
        settings.query.stop = stop
        let pass = Refinement(source: source.name, request: request, stop: stop)
        pass.start(source, settings: settings, then: wake)
        // The partial answer is made while the exact one runs: the reply
        // waits for the longer of the two, not for their sum.
        var partial = source
        let partialUpdate = partial.setSearchPartially(request.settings)
        let remaining = progressiveBudget - Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        if progressiveBudget > 0 || partialUpdate == nil,
           let (exact, update) = pass.value(waiting: partialUpdate == nil ? nil : max(0, remaining)) {
            // Done within the frame: the exact answer, as without `progressive`.
            try work.checkCancelled()
            sources[exact.name] = exact
            return searchResult(exact, update, request, patchBase: patchBase)
        }
        guard let update = partialUpdate else { return .null }
        logger.log(.debug, "search \(source.name) \"\(request.settings.query.text)\": partial answer, "
                   + "\(partial.searchMatchCount ?? 0) matches in the sample, in " + Self.milliseconds(since: started))
        do throws(RPCError) {
            try work.checkCancelled()
        } catch {
            stop.stop()
            throw error
        }
        sources[partial.name] = partial
        refinement = pass
        return searchResult(partial, update, request, patchBase: patchBase)
    }

    /// Before handling `message`: a pending refinement is sent first,
    /// waiting for it, unless `message` is a `search` request of the same
    /// source, which drops it. `$/…` notifications pass it by.
    func settleRefinement(before message: JSON) {
        guard let pending = refinement else { return }
        if case .object(let object) = message, case .string(let method)? = object["method"] {
            if object["id"] == nil && method.hasPrefix("$/") { return }
            if method == "search", object["id"] != nil, case .object(let params)? = object["params"],
               params["source"] == .string(pending.source) {
                pending.stop.stop()
                logger.log(.debug, "search \(pending.source) \"\(pending.request.settings.query.text)\": refinement dropped "
                           + "by the next key, " + Self.milliseconds(since: pending.started) + " after its key")
                refinement = nil
                return
            }
        }
        finishRefinement(waiting: true)
    }

    /// Sends the pending refinement when its exact pass is done (waiting
    /// for it with `waiting`): the source takes the exact answer and the
    /// frontend gets `searchRefined` with the window's diff from the
    /// partial rows.
    public func finishRefinement(waiting: Bool) {
        guard let pending = refinement, let (exact, _) = pending.value(waiting: waiting ? nil : 0) else { return }
        refinement = nil
        guard var current = sources[pending.source], current.searchIsPartial else { return }
        let patchBase = patchBase(current, patchUpdates)
        let update = current.adoptRefinement(exact)
        sources[current.name] = current
        logger.log(.debug, "search \(current.name) \"\(pending.request.settings.query.text)\": refined, "
                   + "\(current.searchMatchCount ?? 0) matches, the exact pass "
                   + Self.milliseconds(since: 0, until: pending.passNanoseconds) + ", sent "
                   + Self.milliseconds(since: pending.started) + " after its key")
        let params = searchResult(current, update, pending.request, patchBase: patchBase)
        notificationSink?(.object(JSONObject([
            ("jsonrpc", .string("2.0")), ("method", .string("searchRefined")), ("params", params),
        ])))
    }
}
