import DiffableEngine
import DiffableProtocol

extension Server {
    /// `setSelectionMode {source, sections: {id: {mode, allowsEmpty?}}}` →
    /// `{source, version, selection}`: items that break the new rules are deselected.
    func setSelectionMode(_ raw: JSON?) throws(RPCError) -> JSON {
        let params = try Params(raw, accepting: ["source", "sections"])
        let name = try params.sourceName()
        guard let sections = try params.optionalObject("sections") else { throw params.missing("sections", "an object") }
        let policies = try SelectionCodec.policies(sections)
        var source = try existingSource(name)
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
