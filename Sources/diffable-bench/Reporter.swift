import Foundation
import DiffableProtocol

/// A target a row is checked against: a duration or a memory size.
struct Target {
    var limit: Double
    var unit: String

    static func ms(_ limit: Double) -> Target { Target(limit: limit, unit: "ms") }
    static func mb(_ limit: Double) -> Target { Target(limit: limit, unit: "MB") }

    var text: String { "≤ \(limit == limit.rounded() ? String(Int(limit)) : formatMilliseconds(limit)) \(unit)" }
}

/// The Swift stdlib baseline of a row, measured in the same run.
enum Baseline {
    /// Median of this sample (ms).
    case measured(Sample)
    /// Killed after the budget (ms): the baseline takes longer than that.
    case exceeded(budget: Double)
    /// Not run, with the reason.
    case skipped(String)
}

/// Prints result rows as an aligned table, and keeps a tally of targets.
final class Reporter {
    private(set) var met = 0
    private(set) var missed = 0
    private(set) var notes: [String] = []

    static let header = pad("benchmark", 64) + lpad("median", 10) + lpad("min", 10) + lpad("max", 10)
        + lpad("runs", 5) + "  " + pad("target", 12) + pad("status", 9) + lpad("stdlib", 12) + lpad("ours/stdlib", 13)

    func begin(_ benchmark: Benchmark) {
        print("")
        print("## \(benchmark.name) — \(benchmark.summary)")
        print(Self.header)
        fflush(nil)
    }

    /// One timing row.
    func row(_ name: String, _ sample: Sample, target: Target? = nil, baseline: Baseline? = nil) {
        var line = Self.pad(name, 64) + Self.lpad(formatMilliseconds(sample.median), 10)
            + Self.lpad(formatMilliseconds(sample.min), 10) + Self.lpad(formatMilliseconds(sample.max), 10)
            + Self.lpad("\(sample.runs)", 5) + "  "
        line += Self.pad(target?.text ?? "", 12) + Self.pad(status(sample.median, target), 9)
        line += baselineColumns(sample.median, baseline)
        print(line)
        fflush(nil)
    }

    /// The header of `keystroke` rows (printed before the first of a table).
    static let keystrokeHeader = pad("keystroke", 64) + lpad("median", 10) + lpad("p90", 10) + lpad("worst", 10)
        + lpad("runs", 5) + "  " + pad("target", 12) + pad("status", 9) + lpad("fzf", 12) + lpad("ours/fzf", 13)

    func keystrokeHeader() {
        print(Self.keystrokeHeader)
        fflush(nil)
    }

    /// One keystroke's timings against three targets (median, p90, worst),
    /// one tally: met when all three are. `fzf`: `fzf --filter`'s time for
    /// the same query in the same run (ms), printed with the ratio of the
    /// median to it, and that ratio against `fzfRatio` (tallied apart).
    func keystroke(_ name: String, _ sample: Sample, median: Double, p90: Double, worst: Double, fzf: Double? = nil,
                   fzfRatio: Double? = nil) {
        var line = Self.pad(name, 64) + Self.lpad(formatMilliseconds(sample.median), 10)
            + Self.lpad(formatMilliseconds(sample.quantile(0.9)), 10) + Self.lpad(formatMilliseconds(sample.max), 10)
            + Self.lpad("\(sample.runs)", 5) + "  "
        let ok = sample.median <= median && sample.quantile(0.9) <= p90 && sample.max <= worst
        if ok { met += 1 } else { missed += 1 }
        let limits = [median, p90, worst].map { $0 == $0.rounded() ? String(Int($0)) : formatMilliseconds($0) }
        line += Self.pad("≤ " + limits.joined(separator: "/"), 12) + Self.pad(ok ? "met" : "NOT MET", 9)
        if let fzf {
            let ratio = sample.median / fzf
            line += Self.lpad(formatMilliseconds(fzf) + " ms", 12) + Self.lpad(String(format: "%.4f", ratio), 13)
            if let fzfRatio {
                line += "  ≤ " + String(format: "%g", fzfRatio) + (ratio <= fzfRatio ? " met" : " NOT MET")
                if ratio <= fzfRatio { met += 1 } else { missed += 1 }
            }
        }
        print(line)
        fflush(nil)
    }

    /// One value row that is not a timing (memory, sizes).
    func value(_ name: String, _ value: Double, unit: String, target: Target? = nil) {
        let shown = String(format: "%.1f", value) + " " + unit
        let line = Self.pad(name, 64) + Self.lpad(shown, 10) + Self.lpad("", 10) + Self.lpad("", 10) + Self.lpad("", 5)
            + "  " + Self.pad(target?.text ?? "", 12) + Self.pad(status(value, target), 9)
        print(line)
        fflush(nil)
    }

    /// A free-form line under the current benchmark (also repeated in the summary).
    func note(_ text: String, keep: Bool = false) {
        print("   note: \(text)")
        fflush(nil)
        if keep { notes.append(text) }
    }

    private func status(_ value: Double, _ target: Target?) -> String {
        guard let target else { return "" }
        if value <= target.limit {
            met += 1
            return "met"
        }
        missed += 1
        return "NOT MET"
    }

    private func baselineColumns(_ ours: Double, _ baseline: Baseline?) -> String {
        switch baseline {
        case nil:
            return ""
        case .measured(let sample):
            return Self.lpad(formatMilliseconds(sample.median) + " ms", 12)
                + Self.lpad(String(format: "%.4f", ours / sample.median), 13)
        case .exceeded(let budget):
            return Self.lpad("> " + formatMilliseconds(budget) + " ms", 12)
                + Self.lpad("< " + String(format: "%.4f", ours / budget), 13)
        case .skipped:
            return Self.lpad("skipped", 12)
        }
    }

    static func pad(_ s: String, _ width: Int) -> String {
        let count = s.count
        return count >= width ? s + " " : s + String(repeating: " ", count: width - count)
    }

    static func lpad(_ s: String, _ width: Int) -> String {
        let count = s.count
        return count >= width ? " " + s : String(repeating: " ", count: width - count) + s
    }
}
