/// A fast path for the bulk of a large `apply`: items written compactly
/// with plain strings, the way the daemon writes them and clients mostly
/// send them:
///
///     {"id":"…"}   {"id":"…","content":"…"}   {"id":"…","content":{"text":"…"}}
///
/// where each `…` is a plain run (printable ASCII without `"` or `\`). Such
/// an element is valid JSON by its bytes alone, so it is recognized by its
/// fixed spellings and two word-at-a-time runs instead of fourteen tokens
/// through the general loop. Anything else (whitespace, escapes, non-ASCII,
/// other members or content) is left to the general loop from the same
/// place: the answer never depends on which path read an element. Escaped
/// strings stay with the general loop: taking them here too, through
/// `skipString`, would slow down every element.
extension JSONValidator {
    /// Skips one item of the shapes above at the reader's `pos` (its `{`);
    /// false, with `pos` unchanged, when the bytes there are anything else
    /// or invalid.
    /// - Precondition: two more levels of nesting are allowed here.
    /// - Complexity: O(element length).
    static func skipCompactItem(_ r: inout JSONReader) -> Bool {
        let start = r.pos
        guard r.skip(#"{"id":"#), skipPlainString(&r) else { r.pos = start; return false }
        if r.skip("}") { return true }
        guard r.skip(#","content":"#) else { r.pos = start; return false }
        // A string, or the text object (a failed part ends the attempt).
        let isString = r.byte(r.pos) == UInt8(ascii: "\"")
        guard isString ? skipPlainString(&r) : r.skip(#"{"text":"#) && skipPlainString(&r) && r.skip("}"),
              r.skip("}")
        else { r.pos = start; return false }
        return true
    }

    /// Skips a string at `pos` that is a plain run up to its closing quote;
    /// false otherwise (then `pos` may have moved).
    @inline(__always) private static func skipPlainString(_ r: inout JSONReader) -> Bool {
        guard r.byte(r.pos) == UInt8(ascii: "\"") else { return false }
        let stop = ByteRuns.plainStringRunEnd(r.input, from: r.pos + 1, end: r.end)
        guard r.byte(stop) == UInt8(ascii: "\"") else { return false }
        r.pos = stop + 1
        return true
    }
}
