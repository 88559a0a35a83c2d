import DiffableEngine

/// `search`'s `fields`: what each one names in an item's content, and
/// reading their texts from the stored content (canonical JSON bytes) for
/// the engine (`SearchFields`), so the engine never sees JSON.
///
/// A field is a member name of an object content (`"name"`), or, when it
/// starts with `/`, an RFC 6901 JSON pointer (`"/meta/path"`, `~1` for `/`,
/// `~0` for `~`, array indices). Its text is the string value there; any
/// other value, or nothing there, is a missing field. A member that
/// appears twice counts by its last value (as everywhere in the daemon).
package struct SearchFieldReader: Sendable {
    /// The fields as the request spelled them (the names highlights carry).
    package let names: [String]
    /// Each field's path: its reference tokens, as UTF-8.
    package let paths: [[[UInt8]]]

    /// The reader of `names`, or the index of the first one that is not a
    /// valid JSON pointer.
    package static func make(_ names: [String]) -> Result<SearchFieldReader, InvalidField> {
        var paths: [[[UInt8]]] = []
        for (index, name) in names.enumerated() {
            if name.utf8.first == UInt8(ascii: "/") {
                guard let pointer = JSONPointer(name) else { return .failure(InvalidField(index: index)) }
                paths.append(pointer.tokens.map { Array($0.utf8) })
            } else {
                paths.append([Array(name.utf8)])
            }
        }
        return .success(SearchFieldReader(names: names, paths: paths))
    }

    package struct InvalidField: Error { package let index: Int }

    /// The engine's view of these fields: each one's text handed over as
    /// the content's own bytes when it holds no escape (no copy).
    package var searchFields: SearchFields {
        let reader = self
        return SearchFields(names: names) { content, found in
            content.withUnsafeBytes { raw in reader.read(raw.bindMemory(to: UInt8.self), found) }
        }
    }

    /// Calls `found(k, utf8)` for each field `k` a content's canonical bytes
    /// hold a string at, in order.
    /// - Complexity: O(bytes of the content) per field, at most.
    package func read(_ bytes: UnsafeBufferPointer<UInt8>, _ found: (Int, UnsafeBufferPointer<UInt8>) -> Void) {
        var tree: JSON??
        for (k, path) in paths.enumerated() {
            switch Self.scan(bytes, path) {
            case .found(let range, escaped: false):
                found(k, UnsafeBufferPointer(rebasing: bytes[range]))
            case .found(let range, escaped: true):
                var s = ByteScanner(bytes, range: 0..<bytes.count)
                s.pos = range.lowerBound - 1
                guard let token = s.stringToken(), var text = s.string(token) else { continue }
                text.withUTF8 { found(k, $0) }
            case .missing:
                continue
            case .unreadable:
                // An escaped member name: read the parsed value.
                if tree == nil { tree = .some(try? JSONParser.parse(UnsafeRawBufferPointer(bytes))) }
                guard let document = tree ?? nil else { continue }
                let pointer = JSONPointer(tokens: path.map { String(decoding: $0, as: UTF8.self) })
                guard case .string(var text)? = try? JSONPatch.value(at: pointer, in: document) else { continue }
                text.withUTF8 { found(k, $0) }
            }
        }
    }

    /// The text of each field (nil: missing), as `read` finds them.
    package func texts(_ bytes: UnsafeBufferPointer<UInt8>) -> [String?] {
        var out = [String?](repeating: nil, count: paths.count)
        read(bytes) { k, utf8 in out[k] = String(decoding: utf8, as: UTF8.self) }
        return out
    }

    /// Where a path leads: a string (its bytes between the quotes, and
    /// whether they hold escapes), nothing readable as a string, or bytes
    /// this scan does not read (an escaped member name).
    package enum Scan { case found(Range<Int>, escaped: Bool), missing, unreadable }

    /// Follows `path` through the bytes without building a tree: an
    /// object's members are compared by their bytes (the last equal one
    /// counts), an array's elements are skipped up to the index.
    /// - Complexity: O(bytes of the content)
    package static func scan(_ bytes: UnsafeBufferPointer<UInt8>, _ path: [[UInt8]]) -> Scan {
        var s = ByteScanner(bytes, range: 0..<bytes.count)
        for token in path {
            s.skipWhitespace()
            switch s.byte(s.pos) {
            case UInt8(ascii: "{"):
                s.pos += 1
                var found: Int?
                var first = true
                loop: while true {
                    switch s.nextMember(isFirst: first) {
                    case .member(let key):
                        first = false
                        if key.count == token.count, s.bytes(of: key).elementsEqual(token) { found = s.pos }
                        guard s.skipValue() != nil else { return .unreadable }
                    case .end:
                        break loop
                    case .fail:
                        return .unreadable
                    }
                }
                guard let found else { return .missing }
                s.pos = found
            case UInt8(ascii: "["):
                guard let index = JSONPointer.arrayIndex(String(decoding: token, as: UTF8.self)) else { return .missing }
                s.pos += 1
                var k = 0
                var first = true
                while true {
                    guard let more = s.nextElement(isFirst: first) else { return .unreadable }
                    first = false
                    guard more else { return .missing }
                    if k == index { break }
                    guard s.skipValue() != nil else { return .unreadable }
                    k += 1
                }
            default:
                return .missing
            }
        }
        s.skipWhitespace()
        guard s.byte(s.pos) == UInt8(ascii: "\"") else { return .missing }
        guard let token = s.stringToken() else { return .unreadable }
        return .found(token.inner, escaped: token.escaped)
    }
}
