import DiffableProtocol
/// One unit produced by `MessageFramer`.
public enum FramedMessage: Equatable, Sendable {
    /// A complete message body (expected to be one JSON value; not yet parsed).
    case body([UInt8])
    /// A framing error; the framer has already resynchronized past it.
    case malformed(String)
    /// A message whose body is over the size limit: its bytes were dropped
    /// as they arrived, never buffered whole; the next message follows.
    case tooLarge(OversizedMessage)
}

/// What is kept of a message over `MessageFramer`'s size limit.
public struct OversizedMessage: Equatable, Sendable {
    /// The body's size: its `Content-Length`, or its line's length without
    /// the line end.
    public var size: Int
    public var limit: Int
    /// The body's first `headSize` bytes (all of them when it is shorter):
    /// clients write `"id"` near the start, so the answer can carry it.
    public var head: [UInt8]

    public static let headSize = 4096

    public init(size: Int, limit: Int, head: [UInt8]) {
        self.size = size
        self.limit = limit
        self.head = head
    }
}
