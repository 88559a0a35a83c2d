import DiffableProtocol
extension MessageFramer {
    /// Messages at least this large may take over the buffer (`nextLine`).
    static let handOverSize = 1 << 20

    mutating func nextLine() -> FramedMessage? {
        while true {
            if skipped != nil {
                let newline = findNewline()
                skipLine(upTo: newline ?? buffer.count)
                guard let newline else { return nil }
                readOffset = newline + 1
                scanOffset = readOffset
                return endSkippedLine()
            }
            guard let newline = findNewline() else {
                // `- 1`: the last byte may be the `\r` of the line's end.
                if buffer.count - readOffset - 1 > maxMessageBytes {
                    skipped = OversizedMessage(size: 0, limit: maxMessageBytes, head: [])
                    continue
                }
                return nil
            }
            var lineEnd = newline
            if lineEnd > readOffset && buffer[lineEnd - 1] == UInt8(ascii: "\r") { lineEnd -= 1 }
            let start = readOffset
            readOffset = newline + 1
            scanOffset = readOffset
            // Checked before blankness, as when the line arrives in pieces.
            if lineEnd - start > maxMessageBytes {
                return .tooLarge(OversizedMessage(size: lineEnd - start, limit: maxMessageBytes,
                                                  head: Array(buffer[start..<min(lineEnd, start + OversizedMessage.headSize)])))
            }
            if buffer[start..<lineEnd].allSatisfy(isWhitespace) { continue }
            if start == 0, readOffset == buffer.count, lineEnd >= Self.handOverSize {
                // A large message that is the whole buffer (a client waiting
                // for each answer): hand the buffer over rather than copy it,
                // and reserve as much for the next one (pages are only
                // touched as bytes arrive).
                var body = buffer
                buffer = []
                buffer.reserveCapacity(body.count)
                readOffset = 0
                scanOffset = 0
                body.removeSubrange(lineEnd...)
                return .body(body)
            }
            return .body(Array(buffer[start..<lineEnd]))
        }
    }

    /// Drops `buffer[readOffset..<end]`, part of the over-long line being
    /// skipped, keeping the line's head.
    mutating func skipLine(upTo end: Int) {
        guard end > readOffset, var message = skipped else { return }
        keepHead(of: &message, upTo: end)
        message.size += end - readOffset
        skippedCR = buffer[end - 1] == UInt8(ascii: "\r")
        skipped = message
        readOffset = end
        scanOffset = end
    }

    /// The over-long line, now ended, without its `\r`.
    mutating func endSkippedLine() -> FramedMessage? {
        guard var message = skipped else { return nil }
        skipped = nil
        if skippedCR {
            message.size -= 1
            if message.head.count > message.size { message.head.removeLast() }
        }
        skippedCR = false
        return .tooLarge(message)
    }

    /// Appends what `message.head` still lacks from `buffer[readOffset..<end]`.
    func keepHead(of message: inout OversizedMessage, upTo end: Int) {
        let room = OversizedMessage.headSize - message.head.count
        guard room > 0 else { return }
        message.head.append(contentsOf: buffer[readOffset..<min(end, readOffset + room)])
    }

    /// Index of the next `\n` at or after `scanOffset`; remembers the scanned range.
    mutating func findNewline() -> Int? {
        let found: Int? = buffer.withUnsafeBufferPointer { all in
            ByteRuns.firstIndex(of: 0x0A, in: all, from: scanOffset, end: all.count)
        }
        if found == nil { scanOffset = buffer.count }
        return found
    }
}
