import Dispatch

/// Splitting one piece of work across the machine's cores.
public enum Parallel {
    /// `body(0) … body(count - 1)` run on `DispatchQueue.concurrentPerform`
    /// (the calling thread takes part), their results in order. Each result
    /// is written by its own thread into its own slot, so nothing is shared
    /// but the slots' memory.
    /// - Complexity: the slowest `body` call, plus O(count).
    public static func map<T>(_ count: Int, placeholder: T, _ body: @Sendable (Int) -> T) -> [T] {
        guard count > 1 else { return count == 1 ? [body(0)] : [] }
        let slots = Slots(count: count, placeholder: placeholder)
        DispatchQueue.concurrentPerform(iterations: count) { k in
            slots.values[k] = body(k)
        }
        return (0..<count).map { slots.values[$0] }
    }

    /// One value per iteration (written by that iteration's thread only).
    private final class Slots<T>: @unchecked Sendable {
        let values: UnsafeMutablePointer<T>
        let count: Int

        init(count: Int, placeholder: T) {
            self.count = count
            values = .allocate(capacity: count)
            values.initialize(repeating: placeholder, count: count)
        }

        deinit {
            values.deinitialize(count: count)
            values.deallocate()
        }
    }
}
