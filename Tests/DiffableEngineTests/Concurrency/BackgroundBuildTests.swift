import Foundation
import Synchronization
import Testing
@testable import DiffableEngine

/// Builds made while starts are held (the server handling a request) run
/// once the starts are released, or on the spot when their value is needed
/// first; either way the build runs exactly once.
@Suite(.serialized) struct BackgroundBuildTests {
    final class Counter: Sendable {
        let runs = Mutex(0)
        func run() -> Int { runs.withLock { $0 += 1; return $0 } }
        var count: Int { runs.withLock { $0 } }
    }

    @Test func heldStartsWaitForTheRelease() throws {
        let counter = Counter()
        BackgroundBuilds.holdStarts()
        let build = BackgroundBuild { counter.run() }
        Thread.sleep(forTimeInterval: 0.05)
        #expect(counter.count == 0 && !build.isReady, "held: not started before the release")
        BackgroundBuilds.releaseHeldStarts()
        #expect(build.value() == 1)
        Thread.sleep(forTimeInterval: 0.05)
        #expect(counter.count == 1, "ran once")
    }

    @Test func aValueNeededBeforeTheReleaseIsBuiltOnTheSpot() {
        let counter = Counter()
        BackgroundBuilds.holdStarts()
        let build = BackgroundBuild { counter.run() }
        #expect(build.value() == 1, "built by the caller")
        BackgroundBuilds.releaseHeldStarts()
        Thread.sleep(forTimeInterval: 0.05)
        #expect(counter.count == 1, "the released start found it claimed")
        #expect(build.value() == 1)
    }

    @Test func withoutAHoldBuildsStartAtOnce() {
        let counter = Counter()
        let build = BackgroundBuild { counter.run() }
        let deadline = DispatchTime.now().uptimeNanoseconds + 5_000_000_000
        while !build.isReady && DispatchTime.now().uptimeNanoseconds < deadline { Thread.sleep(forTimeInterval: 0.001) }
        #expect(build.isReady, "finished without anyone asking")
        #expect(build.value() == 1 && counter.count == 1)
    }
}
