import Testing
import DiffableServer
@testable import diffable

@Suite struct CommandLineTests {
    typealias Options = CommandLineAction.ServeOptions

    @Test func launcherHabitsAreAccepted() {
        #expect(CommandLineAction.parse([]) == .serve(Options()))
        #expect(CommandLineAction.parse(["--stdio"]) == .serve(Options()))
        #expect(CommandLineAction.parse(["--stdio", "--clientProcessId", "42"]) == .serve(Options(clientProcessID: 42)))
        #expect(CommandLineAction.parse(["--clientProcessId=42", "--stdio"]) == .serve(Options(clientProcessID: 42)))
        #expect(CommandLineAction.parse(["--log-level=debug", "--trace", "/tmp/t"]) == .serve(Options(logLevel: .debug, tracePath: "/tmp/t")))
        #expect(CommandLineAction.parse(["replay", "f.trace"]) == .replay(path: "f.trace"))
        #expect(CommandLineAction.parse(["--max-message-bytes", "1000"]) == .serve(Options(maxMessageBytes: 1000)))
        #expect(CommandLineAction.parse(["--max-message-bytes=2147483648"]) == .serve(Options(maxMessageBytes: 1 << 31)))
        #expect(Options().maxMessageBytes == 1 << 30)
    }

    @Test(arguments: [["--clientProcessId"], ["--clientProcessId=x"], ["--clientProcessId", "-1"], ["--trace"],
                      ["--tcp"], ["replay"], ["replay", "a", "b"], ["--log-level", "loud"],
                      ["--max-message-bytes"], ["--max-message-bytes", "0"], ["--max-message-bytes=-1"], ["--max-message-bytes", "1GiB"]])
    func mistakesAreUsageErrors(_ arguments: [String]) {
        guard case .usageError = CommandLineAction.parse(arguments) else {
            Issue.record("\(arguments) should be a usage error")
            return
        }
    }
}
