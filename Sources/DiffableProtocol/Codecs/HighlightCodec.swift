/// Highlights on the wire: ranges of a row's search text as
/// `[[start, count]…]`, or per field as `[{field, ranges}…]`.
package enum HighlightCodec {
    /// `[[start, count]…]`.
    package static func ranges(_ ranges: [Range<Int>]) -> JSON {
        .array(ranges.map { .array([.int($0.lowerBound), .int($0.count)]) })
    }

    /// `[{field, ranges}…]`: consecutive ranges of one field grouped (they
    /// come field by field, ascending).
    package static func fieldRanges(_ marks: [(field: String, range: Range<Int>)]) -> JSON {
        var groups: [(field: String, ranges: [Range<Int>])] = []
        for mark in marks {
            if let last = groups.last, last.field == mark.field {
                groups[groups.count - 1].ranges.append(mark.range)
            } else {
                groups.append((mark.field, [mark.range]))
            }
        }
        return .array(groups.map { .object(JSONObject([("field", .string($0.field)), ("ranges", ranges($0.ranges))])) })
    }
}
