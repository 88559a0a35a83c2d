/// An edit op of a source with nested items: every flat op, read on the
/// tree, plus the ops only trees have.
///
/// On the tree, `appendItems` appends top-level items, `insertItems` inserts
/// siblings of an item (same parent), `deleteItems` deletes subtrees, and
/// `moveItem` moves a subtree next to another item (re-parenting it, across
/// sections too). Section ops carry nested items too.
public enum OutlineEditOperation: Sendable {
    case op(EditOperation)
    /// Adds sections whose items may nest after the last section.
    case appendNestedSections([OutlineSection])
    /// Adds sections whose items may nest right before/after a section.
    case insertNestedSections([OutlineSection], EditPosition)
    /// Appends items (with their children) to a section's top level, or as
    /// the last children of `parent`.
    case appendNodes([OutlineNode], section: String?, parent: String?)
    /// Inserts items (with their children) right before/after an item, as
    /// its siblings.
    case insertNodes([OutlineNode], EditPosition)
    /// Moves an item and its subtree to the end of `parent`'s children.
    case moveInto(String, parent: String)
    /// Replaces the children of `parent` (their subtrees are deleted).
    case replaceChildren(String, [OutlineNode])
    /// Expands or collapses items (and their descendants with `recursive`).
    case setExpanded([String], Bool, recursive: Bool)

    public var name: String {
        switch self {
        case .op(let op): op.name
        case .appendNestedSections: "appendSections"
        case .insertNestedSections: "insertSections"
        case .appendNodes: "appendItems"
        case .insertNodes: "insertItems"
        case .moveInto: "moveItem"
        case .replaceChildren: "replaceChildren"
        case .setExpanded(_, let expand, _): expand ? "expand" : "collapse"
        }
    }
}

/// Redraws an edit asks for though nothing drawn may change (`reloadItems`,
/// `reconfigureItems`, `reloadSections`, `setContent` with style
/// `reconfigure`), applied to the diff after the visible lists are diffed.
/// Items are keyed by their ids' bytes.
struct RedrawRequests {
    var reloadItems: Set<ItemID> = []
    var reconfigureItems: Set<ItemID> = []
    var reloadSections: Set<String> = []
    var isEmpty: Bool { reloadItems.isEmpty && reconfigureItems.isEmpty && reloadSections.isEmpty }

    init() {}

    /// The reloads and reconfigures a full-snapshot changeset reports
    /// (`new` locates them), to carry them into a diff of visible rows:
    /// moved rows and sections that were redrawn too.
    init(_ changeset: Changeset, in new: Snapshot) {
        reloadItems = Set(changeset.itemReloads.compactMap { new.item(at: $0.new)?.itemID })
        reloadItems.formUnion(changeset.itemMoves.lazy.filter(\.contentChanged).compactMap { new.item(at: $0.to)?.itemID })
        reconfigureItems = Set(changeset.itemReconfigures.compactMap { new.item(at: $0.new)?.itemID })
        let redrawnSections = changeset.sectionReloads.map(\.new) + changeset.sectionMoves.filter(\.headerChanged).map(\.to)
        reloadSections = Set(redrawnSections.compactMap { new.sections.indices.contains($0) ? new.sections[$0].id : nil })
    }
}
