/// One operation of the sequential ("steps") form of a diff.
///
/// Each step applies to the list as left by the previous step (Android
/// `RecyclerView` notifications, DOM patches, terminal redraws). Content of
/// inserted and reloaded rows is found in the **new** snapshot at the same
/// positions: steps are ordered so that, when a step inserts or reloads,
/// its positions are already final.
///
/// The order is fixed: item deletes (descending), section deletes
/// (descending), section moves, section inserts (ascending), section header
/// reloads, item moves, item inserts (ascending), item reloads and
/// reconfigures.
public enum Step: Equatable, Sendable {
    /// Remove `count` rows of `section` starting at `row`.
    case deleteItems(section: Int, row: Int, count: Int)
    /// Remove `count` sections starting at `section`, with their rows.
    case deleteSections(section: Int, count: Int)
    /// Remove the section at `from`, then insert it at `to` (Array move semantics).
    case moveSection(from: Int, to: Int)
    /// Insert `count` sections at `section`; their ids, headers and rows are the
    /// new snapshot's sections `section ..< section + count`.
    case insertSections(section: Int, count: Int)
    /// Section header changed: new header is the new snapshot's.
    case reloadSection(section: Int)
    /// Remove the row at `from`, then insert it at `to` (Array move semantics,
    /// sections may differ). `contentChanged` means redraw it with new content.
    case moveItem(from: ItemPath, to: ItemPath, contentChanged: Bool)
    /// Insert `count` rows at `row` of `section`; content is the new snapshot's.
    case insertItems(section: Int, row: Int, count: Int)
    /// Replace `count` rows at `row` with the new snapshot's.
    case reloadItems(section: Int, row: Int, count: Int)
    /// Update `count` rows at `row` in place with the new snapshot's content.
    case reconfigureItems(section: Int, row: Int, count: Int)
}
