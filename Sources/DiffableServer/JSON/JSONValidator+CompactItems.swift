#if canImport(Glibc)
import Glibc
#else
import Foundation
#endif

/// A fast path for the bulk of a large `apply`: items written compactly with
/// plain strings, the way the daemon writes them and clients mostly send
/// them:
///
///     {"id":"…"}   {"id":"…","content":"…"}   {"id":"…","content":{"text":"…"}}
///
/// where each `…` is a plain run (printable ASCII without `"` or `\`). Such
/// an element is valid JSON by its bytes alone, so it is recognized by three
/// literal comparisons and two word-at-a-time runs instead of fourteen tokens
/// through the general loop. Anything else (whitespace, escapes, non-ASCII,
/// other members or content) is left to the general loop from the same
/// place: the answer never depends on which path read an element.
extension JSONValidator {
    /// Skips one item of the shapes above at `pos` (its `{`); false, with
    /// `pos` unchanged, when the bytes there are anything else.
    /// - Precondition: two more levels of nesting are allowed here.
    /// - Complexity: O(element length).
    mutating func skipCompactItem() -> Bool {
        let start = pos
        guard skipBytes(#"{"id":""#), skipPlainRun() else { pos = start; return false }
        if skipByte(UInt8(ascii: "}")) { return true }
        guard skipBytes(#","content":"#) else { pos = start; return false }
        if skipByte(UInt8(ascii: "\"")) {
            guard skipPlainRun() else { pos = start; return false }
        } else {
            guard skipBytes(#"{"text":""#), skipPlainRun(), skipByte(UInt8(ascii: "}")) else { pos = start; return false }
        }
        guard skipByte(UInt8(ascii: "}")) else { pos = start; return false }
        return true
    }

    @inline(__always) private mutating func skipByte(_ expected: UInt8) -> Bool {
        guard byte(pos) == expected else { return false }
        pos += 1
        return true
    }

    /// Skips `literal` when the bytes at `pos` are exactly it.
    @inline(__always) private mutating func skipBytes(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard pos + count <= end, let base = input.baseAddress,
              memcmp(base + pos, literal.utf8Start, count) == 0 else { return false }
        pos += count
        return true
    }

    /// Skips the rest of a string whose opening quote is just behind `pos`
    /// when it is a plain run up to its closing quote.
    private mutating func skipPlainRun() -> Bool {
        let stop = ByteRuns.plainStringRunEnd(input, from: pos, end: end)
        guard byte(stop) == UInt8(ascii: "\"") else { return false }
        pos = stop + 1
        return true
    }
}
