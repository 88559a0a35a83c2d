import DiffableEngine

/// How deep JSON may nest, in requests and in replies.
///
/// One rule ties the three limits together: **every reply the daemon
/// writes is one it can read.** The deepest reply is `snapshot {full: true}`
/// of the deepest tree, whose bottom item carries the deepest content:
///
///     {"result":{"sections":[{"items":[{"children":[ … {"content": …
///      1         2           3 4        5 6          + 2 per level + content
///
/// With items at levels 0…`Outline.maxLevel` (4,096 levels) and content
/// nested at most `content` deep, that reply nests at most
/// `6 + 2 × Outline.maxLevel + content` levels, within `message`.
package enum NestingLimits {
    /// Arrays and objects one message may nest (requests; every reply fits).
    package static let message = 10_000
    /// Arrays and objects one item's content or one section's header may nest.
    package static let content = 1_000
    /// The deepest reply the daemon can write.
    package static let deepestReply = 6 + 2 * Outline.maxLevel + content
}
