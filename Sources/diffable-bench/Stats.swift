import Foundation
import DiffableProtocol

/// Monotonic wall-clock time in nanoseconds.
@inline(__always) func nowNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
}

/// Milliseconds taken by `body` (one run).
@inline(never) func timeMilliseconds(_ body: () throws -> Void) rethrows -> Double {
    let start = nowNanoseconds()
    try body()
    return Double(nowNanoseconds() - start) / 1e6
}

/// Summary of repeated timings, in milliseconds.
struct Sample {
    var values: [Double]

    init(_ values: [Double]) { self.values = values.sorted() }

    var runs: Int { values.count }
    var min: Double { values.first ?? .nan }
    var max: Double { values.last ?? .nan }
    /// Median (mean of the two middle values for an even count).
    var median: Double {
        guard !values.isEmpty else { return .nan }
        let mid = values.count / 2
        return values.count % 2 == 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2
    }
    /// The nearest-rank quantile `q` (0 < q ≤ 1): the smallest value with at
    /// least `q` of the values at or below it (p90 of 10 values: the 9th).
    func quantile(_ q: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let rank = Int((q * Double(values.count)).rounded(.up))
        return values[Swift.min(Swift.max(rank, 1), values.count) - 1]
    }
}

/// Runs `body` `warmup + runs` times and keeps the last `runs` timings.
func sampleRuns(runs: Int, warmup: Int = 1, _ body: () throws -> Void) rethrows -> Sample {
    for _ in 0..<warmup { try body() }
    var values: [Double] = []
    values.reserveCapacity(runs)
    for _ in 0..<runs { values.append(try timeMilliseconds(body)) }
    return Sample(values)
}

/// Keeps `value` alive and opaque to the optimizer.
@inline(never) func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// Formats milliseconds with a sensible number of digits.
func formatMilliseconds(_ ms: Double) -> String {
    if ms.isNaN { return "-" }
    if ms >= 10_000 { return String(format: "%.0f", ms) }
    if ms >= 100 { return String(format: "%.1f", ms) }
    if ms >= 1 { return String(format: "%.2f", ms) }
    return String(format: "%.3f", ms)
}
