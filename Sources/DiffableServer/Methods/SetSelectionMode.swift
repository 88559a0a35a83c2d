import DiffableEngine
import DiffableProtocol

extension Server {
    /// `setSelectionMode {source, sections: {id: {mode, allowsEmpty?}}}` →
    /// `{source, version, selection}`: items that break the new rules are deselected.
    func setSelectionMode(_ request: SetSelectionModeRequest) throws(RPCError) -> JSON {
        let policies = request.policies
        var source = try existingSource(request.source)
        let delta: SelectionDelta
        do throws(SelectionError) {
            delta = try source.setSelectionPolicies(policies)
        } catch {
            throw SelectionCodec.error(error)
        }
        let patchBase = patchBase(source, patchUpdates)
        let window = source.refreshWindow()
        sources[source.name] = source
        return selectionResult(source, delta, window: window, patchBase: patchBase)
    }
}
