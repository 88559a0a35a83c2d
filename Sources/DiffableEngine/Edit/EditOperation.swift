/// Where an insert or a move puts things: right before or right after an
/// existing section (section ops) or item (item ops).
public enum EditPosition: Equatable, Sendable {
    case before(String)
    case after(String)

    /// The id of the section or item the position is relative to.
    public var target: String {
        switch self {
        case .before(let id), .after(let id): id
        }
    }

    var isAfter: Bool {
        if case .after = self { return true }
        return false
    }
}

/// New content for an existing item (`setContent`).
public struct ContentUpdate: Equatable, Sendable {
    public var id: String
    public var content: Content?
    /// Search text of the new content (see `Item.text`).
    public var text: String?

    public init(id: String, content: Content?, text: String? = nil) {
        self.id = id
        self.content = content
        self.text = text
    }
}

/// New content computed from an item's content as it is at that point of
/// the edit (`patchContent`). The engine knows nothing of the content's
/// format: `transform` reads the bytes and gives the new content and its
/// search text, or a failure that rejects the whole edit. The result is
/// then set as a `setContent` would (reported as a reload when it differs).
public struct ContentTransform: Equatable, Sendable {
    public typealias Body = @Sendable (Content?) throws(ContentTransformFailure) -> (content: Content?, text: String?)

    /// Equality of transforms is identity: two made apart are different.
    private final class Identity: Sendable {}

    public var id: String
    public let body: Body
    private let identity = Identity()

    public init(id: String, _ body: @escaping Body) {
        self.id = id
        self.body = body
    }

    public static func == (lhs: ContentTransform, rhs: ContentTransform) -> Bool {
        lhs.id == rhs.id && lhs.identity === rhs.identity
    }
}

/// Why a `ContentTransform` refused an item's content: a description, and
/// the index of the failing step within the transform (a patch's op).
public struct ContentTransformFailure: Error, Equatable, Sendable {
    public var message: String
    public var step: Int?

    public init(_ message: String, step: Int? = nil) {
        self.message = message
        self.step = step
    }
}

/// A new header for an existing section (`setHeaders`).
public struct HeaderUpdate: Equatable, Sendable {
    public var id: String
    public var header: Content?

    public init(id: String, header: Content?) {
        self.id = id
        self.header = header
    }
}

/// How a `setContent` change is reported when the item stays in place.
public enum ContentUpdateStyle: String, Equatable, Sendable {
    /// `itemReloads`: the frontend replaces the cell.
    case reload
    /// `itemReconfigures`: the frontend updates the existing cell in place.
    case reconfigure
}

/// One mutation of a snapshot, as `NSDiffableDataSourceSnapshot` offers them.
///
/// Ops of one `applyingEdits` call apply in order, each to the snapshot left
/// by the previous one, and atomically (see `Snapshot.applyingEdits`).
/// Section ids are unique among sections and item ids unique in the whole
/// snapshot, before and after every op.
public enum EditOperation: Equatable, Sendable {
    /// Adds sections (with their items) after the last section.
    case appendSections([Section])
    /// Adds sections (with their items) right before/after an existing section.
    case insertSections([Section], EditPosition)
    /// Removes sections with all their items.
    case deleteSections([String])
    /// Moves a section right before/after another section.
    case moveSection(String, EditPosition)
    /// Reports a header reload of these sections even if nothing changed.
    case reloadSections([String])
    /// Sets section headers; reported as a reload only when a header differs.
    case setHeaders([HeaderUpdate])
    /// Appends items to the end of a section (the last section when nil).
    case appendItems([Item], toSection: String?)
    /// Inserts items right before/after an existing item.
    case insertItems([Item], EditPosition)
    /// Removes items.
    case deleteItems([String])
    /// Removes every item; sections stay.
    case deleteAllItems
    /// Moves an item right before/after another item, in any section.
    case moveItem(String, EditPosition)
    /// Reports these items as reloaded (replace the cell) even if unchanged.
    case reloadItems([String])
    /// Reports these items as reconfigured (update the cell in place).
    case reconfigureItems([String])
    /// Sets item content; reported only when the content differs.
    case setContent([ContentUpdate], style: ContentUpdateStyle)
    /// Sets an item's content to what the transform makes of its current
    /// content (`patchContent`); reported only when the content differs.
    case transformContent(ContentTransform)

    /// The op's name, as in the protocol (`"insertItems"`, …).
    public var name: String {
        switch self {
        case .appendSections: "appendSections"
        case .insertSections: "insertSections"
        case .deleteSections: "deleteSections"
        case .moveSection: "moveSection"
        case .reloadSections: "reloadSections"
        case .setHeaders: "setHeaders"
        case .appendItems: "appendItems"
        case .insertItems: "insertItems"
        case .deleteItems: "deleteItems"
        case .deleteAllItems: "deleteAllItems"
        case .moveItem: "moveItem"
        case .reloadItems: "reloadItems"
        case .reconfigureItems: "reconfigureItems"
        case .setContent: "setContent"
        case .transformContent: "patchContent"
        }
    }
}

/// Why an edit was rejected: the failing op's index, the reason and the
/// offending ids. Nothing was changed.
public struct EditError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The deepest level an edit may nest an item at (0 at the top), the
    /// bound `tooDeep` names; `Outline.maxLevel` is this bound.
    public static let deepestLevel = 4095

    public enum Reason: String, Equatable, Sendable {
        /// A named section does not exist (at that point of the edit).
        case unknownSection
        /// A named item does not exist (at that point of the edit).
        case unknownItem
        /// A section id to insert already exists, or is listed twice.
        case duplicateSection
        /// An item id to insert already exists, or is listed twice.
        case duplicateItem
        /// A section or an item moved relative to itself.
        case relativeToItself
        /// `appendItems` without a section when the snapshot has no section.
        case noSection
        /// An item moved under itself or one of its descendants.
        case cycle
        /// The op would nest items deeper than `deepestLevel`.
        case tooDeep
        /// A `transformContent` (`patchContent`) refused the item's content
        /// (see `EditError.transformFailure`).
        case patchFailed
        /// The caller asked the edit to stop before this op (its
        /// `shouldStop`); the server answers RequestCancelled, not 1004.
        case stopped
    }

    /// Index of the failing op in the request's list.
    public var op: Int
    /// The failing op's name.
    public var opName: String
    public var reason: Reason
    public var ids: [String]
    /// What the transform said, for `patchFailed`.
    public var transformFailure: ContentTransformFailure?

    public init(op: Int, opName: String, reason: Reason, ids: [String], transformFailure: ContentTransformFailure? = nil) {
        self.op = op
        self.opName = opName
        self.reason = reason
        self.ids = ids
        self.transformFailure = transformFailure
    }

    public var description: String {
        let quoted = ids.map { "\"\($0)\"" }.joined(separator: ", ")
        let what: String
        switch reason {
        case .unknownSection: what = "no section \(quoted)"
        case .unknownItem: what = "no item \(quoted)"
        case .duplicateSection: what = "duplicate section id \(quoted) (already in the source, or listed twice in the op)"
        case .duplicateItem: what = "duplicate item id \(quoted) (already in the source, or listed twice in the op)"
        case .relativeToItself: what = "\(quoted) cannot move relative to itself"
        case .noSection: what = "there is no section to append to"
        case .cycle: what = "\(quoted): an item cannot move under itself or its own descendants"
        case .stopped: what = "stopped before this op; nothing was changed"
        case .patchFailed: what = "\(quoted): \(transformFailure?.message ?? "the new content was refused")"
        case .tooDeep:
            let count = Self.deepestLevel + 1
            let levels = count >= 1000 ? "\(count / 1000),\(String(count % 1000 + 1000).dropFirst())" : "\(count)"
            what = "\(quoted) would nest items deeper than level \(Self.deepestLevel); trees are at most \(levels) levels deep"
        }
        return "op \(op) (\(opName)): \(what)"
    }
}

/// A failure inside one op, before the op index is known.
struct EditFailure: Error {
    var reason: EditError.Reason
    var ids: [String]
    var transformFailure: ContentTransformFailure?

    init(_ reason: EditError.Reason, _ ids: [String], transformFailure: ContentTransformFailure? = nil) {
        self.reason = reason
        self.ids = ids
        self.transformFailure = transformFailure
    }
}

extension ContentTransform {
    /// The transform's new content for `old`, as the `setContent` update it
    /// becomes; a refusal as the op's failure.
    func update(from old: Content?) throws(EditFailure) -> ContentUpdate {
        do throws(ContentTransformFailure) {
            let new = try body(old)
            return ContentUpdate(id: id, content: new.content, text: new.text)
        } catch {
            throw EditFailure(.patchFailed, [id], transformFailure: error)
        }
    }
}
