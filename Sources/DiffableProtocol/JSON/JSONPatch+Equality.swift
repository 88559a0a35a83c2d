extension JSONPatch {
    /// RFC 6902's equality, for `test`: same type and, for numbers, the
    /// same value (exactly: `1`, `1.0`, `10e-1` are equal, `0.1` and
    /// `0.10000000000000001` are not); strings by code points; arrays
    /// element by element; objects with the same number of members, each
    /// name's value equal in both, whatever the order.
    /// - Complexity: O(size of both values); iterative, so any depth is safe.
    package static func equal(_ a: JSON, _ b: JSON) -> Bool {
        var pending: [(JSON, JSON)] = [(a, b)]
        while let (x, y) = pending.popLast() {
            switch (resolved(x), resolved(y)) {
            case (.null, .null):
                continue
            case (.bool(let p), .bool(let q)):
                guard p == q else { return false }
            case (.number(let p), .number(let q)):
                guard numbersEqual(p, q) else { return false }
            case (.string(let p), .string(let q)):
                guard p.unicodeScalars.elementsEqual(q.unicodeScalars) else { return false }
            case (.array(let p), .array(let q)):
                guard p.count == q.count else { return false }
                pending.append(contentsOf: zip(p, q))
            case (.object(let p), .object(let q)):
                guard p.count == q.count else { return false }
                var last: [[UInt8]: JSON] = [:]
                for member in q.members { last[Array(member.key.utf8)] = member.value }
                var names = Set<[UInt8]>()
                for member in p.members.reversed() where names.insert(Array(member.key.utf8)).inserted {
                    guard let other = last[Array(member.key.utf8)] else { return false }
                    pending.append((member.value, other))
                }
                guard names.count == last.count else { return false }
            default:
                return false
            }
        }
        return true
    }

    /// Stored content (`.raw`) as a tree; other values as they are.
    private static func resolved(_ value: JSON) -> JSON {
        guard case .raw(let bytes) = value else { return value }
        return (try? JSONParser.parse(bytes)) ?? .null
    }

    /// Two number lexemes with the same value, compared as exact decimals.
    package static func numbersEqual(_ a: String, _ b: String) -> Bool {
        if a.utf8.elementsEqual(b.utf8) { return true }
        guard let x = decimal(a), let y = decimal(b) else { return false }
        return x.negative == y.negative && x.digits == y.digits && x.exponent == y.exponent
    }

    /// A JSON number lexeme as sign, significant digits (no leading or
    /// trailing zeros; none for zero) and a power of ten; nil when the
    /// exponent does not fit in `Int`.
    package static func decimal(_ lexeme: String) -> (negative: Bool, digits: [UInt8], exponent: Int)? {
        let bytes = Array(lexeme.utf8)
        var i = 0
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { i += 1 }
        var digits: [UInt8] = []
        var fractionCount = 0
        var inFraction = false
        while i < bytes.count {
            let byte = bytes[i]
            if byte == UInt8(ascii: ".") {
                inFraction = true
            } else if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                digits.append(byte)
                if inFraction { fractionCount += 1 }
            } else {
                break
            }
            i += 1
        }
        var exponent = 0
        if i < bytes.count {
            i += 1  // e or E
            var exponentNegative = false
            if i < bytes.count, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
                exponentNegative = bytes[i] == UInt8(ascii: "-")
                i += 1
            }
            while i < bytes.count {
                let (shifted, o1) = exponent.multipliedReportingOverflow(by: 10)
                let (sum, o2) = shifted.addingReportingOverflow(Int(bytes[i]) - Int(UInt8(ascii: "0")))
                guard !o1, !o2 else { return nil }
                exponent = sum
                i += 1
            }
            if exponentNegative { exponent = -exponent }
        }
        let (scaled, overflow) = exponent.subtractingReportingOverflow(fractionCount)
        guard !overflow else { return nil }
        exponent = scaled
        guard let first = digits.firstIndex(where: { $0 != UInt8(ascii: "0") }) else { return (false, [], 0) }
        digits.removeSubrange(..<first)
        while digits.last == UInt8(ascii: "0") {
            digits.removeLast()
            let (up, o) = exponent.addingReportingOverflow(1)
            guard !o else { return nil }
            exponent = up
        }
        return (negative, digits, exponent)
    }
}
