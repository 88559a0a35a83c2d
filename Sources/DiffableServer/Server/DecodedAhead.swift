import DiffableProtocol

/// A request decoded before its turn (a queued `search` checked to decide
/// whether it supersedes the one before it), kept for its turn so that it
/// is decoded once. It is for the very next request only: taken (or
/// dropped) when that request is handled.
struct DecodedAhead {
    private var kept: (id: JSON, request: any RequestType)?

    mutating func keep(_ request: any RequestType, id: JSON) { kept = (id, request) }

    /// The request cancelled before its turn is not kept for it.
    mutating func drop() { kept = nil }

    /// What was kept for request `id`, taken; anything kept for another
    /// request is dropped (it is for the very next request only).
    mutating func take(for id: JSON) -> (any RequestType)? {
        guard let kept else { return nil }
        self.kept = nil
        return kept.id == id ? kept.request : nil
    }
}
