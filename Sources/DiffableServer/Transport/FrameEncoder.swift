/// Frames outgoing message bodies for the transport mode the client chose.
public enum FrameEncoder {
    /// What goes before and after a body of `bodyCount` bytes (the session
    /// writes the three apart, so a large body is never copied into a frame).
    public static func framing(bodyCount: Int, mode: MessageFramer.Mode) -> (header: [UInt8], trailer: [UInt8]) {
        switch mode {
        case .lineDelimited: return ([], [0x0A])
        case .contentLength, .undetermined: return (Array("Content-Length: \(bodyCount)\r\n\r\n".utf8), [])
        }
    }

    /// `.contentLength` and `.undetermined`: exactly `Content-Length: N\r\n\r\n` + body, no other header.
    /// `.lineDelimited`: body + `\n` (safe because `JSONWriter` never emits raw newlines).
    /// - Complexity: O(body.count), one allocation.
    public static func frame(_ body: [UInt8], mode: MessageFramer.Mode) -> [UInt8] {
        let (header, trailer) = framing(bodyCount: body.count, mode: mode)
        var out = [UInt8]()
        out.reserveCapacity(header.count + body.count + trailer.count)
        out.append(contentsOf: header)
        out.append(contentsOf: body)
        out.append(contentsOf: trailer)
        return out
    }
}
