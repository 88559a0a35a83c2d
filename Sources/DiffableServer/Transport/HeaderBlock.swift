import DiffableProtocol
/// Accumulated state of one LSP header block (see `MessageFramer`).
struct HeaderBlock: Sendable {
    var byteCount = 0
    var lineCount = 0
    var contentLength: Int?
    /// Why the Content-Length is unusable, if it is.
    var lengthError: String?
    /// First non-length problem (bad charset, bad header line).
    var error: String?

    mutating func parse(line: ArraySlice<UInt8>) {
        lineCount += 1
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
            error = error ?? "invalid header line (no ':')"
            return
        }
        let name = trim(line[line.startIndex..<colon])
        let value = trim(line[(colon + 1)...])
        if equalsIgnoringCase(name, "content-length") {
            parseLength(value)
        } else if equalsIgnoringCase(name, "content-type") {
            if let charsetError = checkCharset(value) { error = error ?? charsetError }
        }
    }

    private mutating func parseLength(_ value: ArraySlice<UInt8>) {
        guard !value.isEmpty, value.count <= 15,
              value.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            lengthError = "invalid Content-Length value"
            contentLength = nil
            return
        }
        let n = value.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        if lengthError != nil { return }
        if let existing = contentLength, existing != n {
            lengthError = "conflicting Content-Length headers"
            contentLength = nil
            return
        }
        contentLength = n
    }

    /// Looks for a `charset=` parameter; only UTF-8 is accepted.
    private func checkCharset(_ value: ArraySlice<UInt8>) -> String? {
        for param in value.split(separator: UInt8(ascii: ";")).dropFirst() {
            guard let eq = param.firstIndex(of: UInt8(ascii: "=")) else { continue }
            guard equalsIgnoringCase(trim(param[param.startIndex..<eq]), "charset") else { continue }
            var charset = trim(param[(eq + 1)...])
            if charset.count >= 2, charset.first == UInt8(ascii: "\""), charset.last == UInt8(ascii: "\"") {
                charset = charset.dropFirst().dropLast()
            }
            if equalsIgnoringCase(charset, "utf-8") || equalsIgnoringCase(charset, "utf8") { continue }
            return "unsupported charset '\(String(decoding: charset, as: UTF8.self))' (only utf-8)"
        }
        return nil
    }
}

private func trim(_ s: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
    var s = s
    while let f = s.first, f == 0x20 || f == 0x09 { s = s.dropFirst() }
    while let l = s.last, l == 0x20 || l == 0x09 || l == 0x0D { s = s.dropLast() }
    return s
}

/// ASCII case-insensitive comparison with a lowercase ASCII literal.
private func equalsIgnoringCase(_ bytes: ArraySlice<UInt8>, _ lowercase: StaticString) -> Bool {
    guard bytes.count == lowercase.utf8CodeUnitCount else { return false }
    let expected = UnsafeBufferPointer(start: lowercase.utf8Start, count: lowercase.utf8CodeUnitCount)
    for (b, e) in zip(bytes, expected) {
        let lower = b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z") ? b | 0x20 : b
        if lower != e { return false }
    }
    return true
}
