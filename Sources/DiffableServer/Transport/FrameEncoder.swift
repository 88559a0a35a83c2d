import DiffableProtocol
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

    /// Appends the frame of a body of `bodyCount` bytes to `out`: the
    /// header before the body (`before: true`) or the trailer after it, as
    /// `framing` spells them, without allocating.
    /// - Complexity: O(digits of bodyCount).
    static func appendFraming(bodyCount: Int, mode: MessageFramer.Mode, before: Bool, to out: inout [UInt8]) {
        switch mode {
        case .lineDelimited:
            if !before { out.append(0x0A) }
        case .contentLength, .undetermined:
            guard before else { return }
            out.append(contentsOf: "Content-Length: ".utf8)
            let count = max(0, bodyCount)
            var divisor = 1
            while divisor <= count / 10 { divisor *= 10 }
            repeat {
                out.append(UInt8(ascii: "0") &+ UInt8(count / divisor % 10))
                divisor /= 10
            } while divisor > 0
            out.append(contentsOf: [0x0D, 0x0A, 0x0D, 0x0A] as [UInt8])
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
