import DiffableProtocol
/// Turns an incoming byte stream into message bodies. Pure state machine: no I/O.
///
/// The mode is decided by the first non-whitespace byte of the stream:
/// - `{` or `[` → `.lineDelimited`: one JSON message per line, ended by `\n` or
///   `\r\n`; blank (whitespace-only) lines are skipped. At EOF (`finish()`), a
///   final non-blank line without a newline is delivered as a `.body`.
/// - anything else → `.contentLength` (LSP base protocol): header lines
///   `Name: value` ended by `\r\n` (bare `\n` tolerated), a blank line, then
///   exactly `Content-Length` bytes of body.
///   - Header names are case-insensitive, in any order; unknown headers are ignored.
///   - Any `Content-Type` is accepted; its `charset` must be `utf-8`/`utf8` (any case)
///     or absent. Another charset → `.malformed`, and the body is skipped.
///   - A missing or invalid `Content-Length` → `.malformed`; the bytes up to the
///     next `Content-Length` header name (any case) are dropped: they are the
///     body of the unreadable message, whose length is unknown.
///   - A body the caller could not parse → `resynchronize(after:)` rescans it
///     and what follows for the next `Content-Length` header name, so a
///     wrong length (too short or too long) costs only its own message.
///   - A header line without `:` → `.malformed` (body skipped when the length is known).
///   - A header block over 64 KiB without its blank line → `.malformed`; the bytes
///     are discarded up to the next blank line.
///   - Blank lines before a header block are ignored.
/// - A body over `maxMessageBytes` is never buffered: with `Content-Length`
///   its bytes are dropped as they stream in; in a line, once more than the
///   limit (plus one byte, which may be the `\r` of its end) is buffered
///   without a newline, the bytes are dropped up to the next newline. Either
///   way `.tooLarge` reports it once its end is reached (or at EOF), keeping
///   only its first bytes, and framing goes on after it.
///
/// - Complexity: linear in the total bytes appended, for any chunking and any
///   body size: scanning resumes where it stopped, consumed bytes are dropped
///   by occasional amortized compaction, each body is copied out once (or not at
///   all when it fills the buffer exactly).
public struct MessageFramer: Sendable {
    public enum Mode: Equatable, Sendable {
        case undetermined, contentLength, lineDelimited
    }

    public static let maxHeaderBlockSize = 64 * 1024
    /// 1 GiB: a 5M-item `apply` of short ids and contents fits twice over.
    public static let defaultMaxMessageBytes = 1 << 30

    /// Bodies larger than this are skipped (`.tooLarge`).
    public let maxMessageBytes: Int

    public private(set) var mode: Mode = .undetermined

    private enum State: Sendable {
        /// Reading header lines (LSP) or waiting for a line (NDJSON).
        case headers
        /// After an oversized header block: dropping lines until a blank one.
        case discardingHeaders
        /// Waiting for a body of this many bytes.
        case body(Int)
        /// Dropping this many more bytes of a rejected message's body.
        case skippingBody(Int)
        /// Dropping this many more bytes of a body over the limit (`skipped`).
        case skippingOversized(Int)
        /// After a header block without a usable `Content-Length`, or a body
        /// that was not JSON: dropping bytes up to the next `Content-Length`
        /// header name (any case), where the next message most likely starts.
        case resynchronizing
    }

    private var state: State = .headers
    // The members without `private` are shared with MessageFramer+Lines.swift.
    var buffer: [UInt8] = []
    /// Bytes before this index are consumed.
    var readOffset = 0
    /// Bytes in `readOffset..<scanOffset` contain no newline (search resumes here).
    var scanOffset = 0
    /// Headers of the block being read.
    private var headers = HeaderBlock()
    /// While discarding: a partial (non-blank) line was dropped without its newline.
    private var discardMidLine = false
    /// Where the header block being read starts: an unusable block is
    /// rescanned from just after it (its garbage may hide the next header).
    private var blockStart: Int?
    /// The message over the limit being dropped: in a line, from the moment
    /// the limit is passed to its newline; with `Content-Length`, while in
    /// `.skippingOversized`.
    var skipped: OversizedMessage?
    /// The last dropped byte of an over-long line was `\r` (maybe its end).
    var skippedCR = false

    public init(maxMessageBytes: Int = MessageFramer.defaultMaxMessageBytes) {
        self.maxMessageBytes = max(0, maxMessageBytes)
    }

    /// Bytes buffered but not yet consumed (for diagnostics and tests).
    public var bufferedByteCount: Int { buffer.count - readOffset }

    /// - Complexity: amortized O(bytes.count).
    public mutating func append<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        compactIfWorthwhile()
        let needed = buffer.count + bytes.count
        if needed > buffer.capacity && buffer.capacity >= Self.quickGrowthFrom {
            // A large message still arriving: grow by more than doubling.
            // Each growth copies what arrived and touches fresh pages, while
            // capacity never written to costs no memory.
            buffer.reserveCapacity(max(needed, buffer.capacity * Self.quickGrowthFactor))
        }
        buffer.append(contentsOf: bytes)
    }

    /// Buffers of at least this capacity grow by `quickGrowthFactor`.
    static let quickGrowthFrom = 1 << 20
    static let quickGrowthFactor = 8

    /// Drops consumed bytes once they are at least half the buffer (amortized O(1) per byte).
    private mutating func compactIfWorthwhile() {
        let keepFrom = min(readOffset, blockStart ?? readOffset)
        guard keepFrom > 0 else { return }
        if keepFrom == buffer.count {
            buffer.removeAll(keepingCapacity: true)
        } else if keepFrom >= 4096 && keepFrom >= buffer.count / 2 {
            buffer.removeSubrange(0..<keepFrom)
        } else {
            return
        }
        scanOffset -= keepFrom
        readOffset -= keepFrom
        blockStart = blockStart.map { $0 - keepFrom }
    }

    /// The next complete message or framing error, or `nil` when more bytes are needed.
    /// - Complexity: amortized O(bytes newly examined).
    public mutating func next() -> FramedMessage? {
        while true {
            switch mode {
            case .undetermined:
                while readOffset < buffer.count, isWhitespace(buffer[readOffset]) { readOffset += 1 }
                scanOffset = readOffset
                guard readOffset < buffer.count else { return nil }
                let first = buffer[readOffset]
                mode = first == UInt8(ascii: "{") || first == UInt8(ascii: "[") ? .lineDelimited : .contentLength
            case .lineDelimited:
                return nextLine()
            case .contentLength:
                return nextLSP()
            }
        }
    }

    /// Call at end of input, after `next()` returned `nil`. Reports a truncated trailing
    /// message once (as `.malformed`, as `.body` for an unterminated last NDJSON line, or
    /// as `.tooLarge` for one over the limit); afterwards returns `nil`.
    public mutating func finish() -> FramedMessage? {
        defer {
            buffer = []
            readOffset = 0
            scanOffset = 0
            state = .headers
            headers = HeaderBlock()
            discardMidLine = false
            blockStart = nil
            skipped = nil
            skippedCR = false
        }
        let rest = buffer[readOffset...]
        switch mode {
        case .undetermined:
            return nil
        case .lineDelimited:
            if skipped != nil {
                // End of input ends the over-long line.
                skipLine(upTo: buffer.count)
                return endSkippedLine()
            }
            var line = rest[...]
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            if line.count > maxMessageBytes {
                return .tooLarge(OversizedMessage(size: line.count, limit: maxMessageBytes,
                                                  head: Array(line.prefix(OversizedMessage.headSize))))
            }
            return line.allSatisfy(isWhitespace) ? nil : .body(Array(line))
        case .contentLength:
            switch state {
            case .headers:
                if headers.lineCount == 0 && rest.allSatisfy(isWhitespace) { return nil }
                return .malformed("truncated header block at end of input")
            case .body(let length):
                return .malformed("truncated message at end of input: expected \(length) body bytes, got \(rest.count)")
            case .skippingOversized:
                // Truncated, but over the limit whatever its end: say that.
                return skipped.map { .tooLarge($0) }
            case .discardingHeaders, .skippingBody, .resynchronizing:
                return nil  // already reported
            }
        }
    }

    // MARK: - Content-Length (LSP)

    private mutating func nextLSP() -> FramedMessage? {
        while true {
            switch state {
            case .body(let length):
                guard buffer.count - readOffset >= length else { return nil }
                let body: [UInt8]
                if readOffset == 0 && buffer.count == length {
                    body = buffer  // take over the storage, no copy
                    buffer = []
                } else {
                    body = Array(buffer[readOffset..<readOffset + length])
                    readOffset += length
                }
                scanOffset = readOffset
                state = .headers
                return .body(body)
            case .skippingBody(let remaining):
                let n = min(remaining, buffer.count - readOffset)
                readOffset += n
                scanOffset = readOffset
                guard n == remaining else {
                    state = .skippingBody(remaining - n)
                    return nil
                }
                state = .headers
            case .skippingOversized(let remaining):
                let n = min(remaining, buffer.count - readOffset)
                if var message = skipped {
                    keepHead(of: &message, upTo: readOffset + n)
                    skipped = message
                }
                readOffset += n
                scanOffset = readOffset
                guard n == remaining else {
                    state = .skippingOversized(remaining - n)
                    return nil
                }
                state = .headers
                if let message = skipped {
                    skipped = nil
                    return .tooLarge(message)
                }
            case .resynchronizing:
                guard let start = findHeaderName() else { return nil }
                readOffset = start
                scanOffset = start
                state = .headers
            case .discardingHeaders:
                guard let newline = findNewline() else {
                    // Drop the partial line, remembering that it was not blank.
                    if readOffset < buffer.count {
                        let tail = buffer[buffer.count - 1]
                        if buffer.count - readOffset > 1 || tail != UInt8(ascii: "\r") { discardMidLine = true }
                        readOffset = tail == UInt8(ascii: "\r") ? buffer.count - 1 : buffer.count
                        scanOffset = buffer.count
                    }
                    return nil
                }
                let blank = !discardMidLine && isBlankLine(readOffset, newline)
                discardMidLine = false
                readOffset = newline + 1
                scanOffset = readOffset
                if blank { state = .headers }
            case .headers:
                guard let newline = findNewline() else {
                    let pending = buffer.count - readOffset
                    if headers.byteCount + pending > Self.maxHeaderBlockSize {
                        return startDiscarding()
                    }
                    return nil
                }
                let lineStart = readOffset
                readOffset = newline + 1
                scanOffset = readOffset
                headers.byteCount += newline + 1 - lineStart
                if headers.lineCount == 0 && buffer[lineStart..<newline].allSatisfy(isWhitespace) {
                    headers.byteCount = 0  // stray blank line between messages
                    continue
                }
                if blockStart == nil { blockStart = lineStart }
                if isBlankLine(lineStart, newline) {
                    if let message = endOfHeaderBlock() { return message }
                    continue
                }
                if headers.byteCount > Self.maxHeaderBlockSize {
                    return startDiscarding()
                }
                var lineEnd = newline
                if lineEnd > lineStart && buffer[lineEnd - 1] == UInt8(ascii: "\r") { lineEnd -= 1 }
                headers.parse(line: buffer[lineStart..<lineEnd])
            }
        }
    }

    private mutating func startDiscarding() -> FramedMessage {
        headers = HeaderBlock()
        blockStart = nil
        state = .discardingHeaders
        discardMidLine = false
        return .malformed("header block exceeds \(Self.maxHeaderBlockSize) bytes without a terminating blank line")
    }

    /// Decides what follows a complete header block; `nil` means go on with the body.
    private mutating func endOfHeaderBlock() -> FramedMessage? {
        let block = headers
        headers = HeaderBlock()
        let start = blockStart
        blockStart = nil
        guard let length = block.contentLength else {
            if let start {
                readOffset = start + 1
                scanOffset = readOffset
            }
            state = .resynchronizing
            return .malformed(block.lengthError ?? "missing Content-Length header")
        }
        if let error = block.error {
            state = .skippingBody(length)
            return .malformed(error)
        }
        if length > maxMessageBytes {
            skipped = OversizedMessage(size: length, limit: maxMessageBytes, head: [])
            state = .skippingOversized(length)
            return nil
        }
        state = .body(length)
        // Make room so a large body lands at offset 0 (enables the no-copy take-over).
        let available = buffer.count - readOffset
        if available < length {
            if readOffset > 0 {
                buffer.removeSubrange(0..<readOffset)
                readOffset = 0
                scanOffset = 0
            }
            // The whole body at once (it is at most `maxMessageBytes`):
            // growing in steps would copy what arrived and fault in fresh
            // pages at each step, and pages never written cost no memory.
            buffer.reserveCapacity(length)
        }
        return nil
    }

    /// Goes back over `body` (a message the caller could not parse) and the
    /// bytes after it, looking for the next `Content-Length` header name: when
    /// the length was wrong, the next message's header lies inside the body
    /// (length too long) or right after it (too short).
    /// - Complexity: O(body.count + buffered bytes), once per failed body.
    public mutating func resynchronize(after body: [UInt8]) {
        guard mode == .contentLength else { return }
        // The body starts after its header block, so framing never returns
        // to a position it has framed from: rescanning always progresses.
        var rest = body
        rest.append(contentsOf: buffer[readOffset...])
        buffer = rest
        readOffset = 0
        scanOffset = 0
        headers = HeaderBlock()
        blockStart = nil
        skipped = nil
        state = .resynchronizing
    }

    /// The index of the next case-insensitive `content-length` at or after
    /// `readOffset`; otherwise drops the bytes that cannot start one and
    /// returns nil.
    private mutating func findHeaderName() -> Int? {
        let name = Array("content-length".utf8)
        var i = readOffset
        while i + name.count <= buffer.count {
            var matched = 0
            while matched < name.count {
                let b = buffer[i + matched]
                let lower = b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z") ? b | 0x20 : b
                if lower != name[matched] { break }
                matched += 1
            }
            if matched == name.count { return i }
            i += 1
        }
        // Keep a tail that may be the start of a name split across reads.
        readOffset = max(readOffset, buffer.count - (name.count - 1))
        scanOffset = readOffset
        return nil
    }

    /// True when `buffer[start..<newline]` is empty or just `\r`.
    private func isBlankLine(_ start: Int, _ newline: Int) -> Bool {
        newline == start || (newline == start + 1 && buffer[start] == UInt8(ascii: "\r"))
    }
}

@inline(__always) func isWhitespace(_ b: UInt8) -> Bool {
    b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09
}
