import DiffableServer
import Foundation

// Thin entry point: parse the command line, then serve stdio.
switch CommandLineAction.parse(Array(CommandLine.arguments.dropFirst())) {
case .printHelp:
    print(CommandLineAction.usage)
    exit(0)
case .printVersion:
    print("\(ServerInfo.name) \(ServerInfo.version)")
    exit(0)
case .usageError(let message):
    FileHandle.standardError.write(Data("diffable: \(message)\n\(CommandLineAction.usage)\n".utf8))
    exit(2)
case .serve(let level):
    let server = Server(logger: Logger(level: level))
    exit(StdioSession(server: server).run())
}
