/// The content of an item or the header of a section, as opaque canonical bytes.
///
/// The engine never interprets content: it compares it (to detect reloads) and
/// hands it back. The protocol layer decides what the bytes are (compact JSON)
/// and guarantees that equal values produce equal bytes.
public struct Content: Hashable, Sendable {
    public let bytes: [UInt8]

    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }
}
