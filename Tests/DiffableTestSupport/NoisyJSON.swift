import DiffableProtocol

/// Writes JSON with random insignificant whitespace and random (valid)
/// escape spellings, so the same value comes in many byte forms.
package enum NoisyJSON {
    package static func ws<R: RandomNumberGenerator>(_ rng: inout R) -> String {
        switch Int.random(in: 0..<10, using: &rng) {
        case 0: return " "
        case 1: return "\n  "
        case 2: return "\t\r\n"
        default: return ""
        }
    }

    package static func string<R: RandomNumberGenerator>(_ s: String, _ rng: inout R, noisy allowNoise: Bool = true) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            let noisy = allowNoise && Int.random(in: 0..<6, using: &rng) == 0
            switch scalar {
            case "\"": out += noisy ? "\\u0022" : "\\\""
            case "\\": out += noisy ? "\\u005C" : "\\\\"
            case "/": out += noisy ? "\\/" : "/"
            case "\n": out += noisy ? "\\u000a" : "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            default:
                if scalar.value < 0x20 {
                    out += "\\u00" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
                } else if noisy && scalar.value < 0xD800 {
                    let hex = String(scalar.value, radix: 16, uppercase: Bool.random(using: &rng))
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else if noisy && scalar.value > 0xFFFF {
                    let v = scalar.value - 0x10000
                    out += "\\u" + String(0xD800 + (v >> 10), radix: 16) + "\\u" + String(0xDC00 + (v & 0x3FF), radix: 16)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// `noisyKeys: false` spells member names without needless escapes.
    package static func write<R: RandomNumberGenerator>(_ value: JSON, _ rng: inout R, noisyKeys: Bool = true) -> String {
        switch value {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return n
        case .string(let s): return string(s, &rng)
        case .raw(let bytes): return String(decoding: bytes, as: UTF8.self)
        case .array(let elements):
            return "[" + ws(&rng) + elements.map { write($0, &rng, noisyKeys: noisyKeys) + ws(&rng) }.joined(separator: "," + ws(&rng)) + "]"
        case .object(let object):
            return "{" + ws(&rng) + object.members.map {
                string($0.key, &rng, noisy: noisyKeys) + ws(&rng) + ":" + ws(&rng) + write($0.value, &rng, noisyKeys: noisyKeys) + ws(&rng)
            }.joined(separator: "," + ws(&rng)) + "}"
        }
    }
}
