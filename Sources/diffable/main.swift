import DiffableServer
import Foundation

// Thin entry point: parse the command line, then serve stdio (or replay a trace).
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
case .replay(let path):
    exit(TraceReplay.run(path: path))
case .serve(let options):
    let tracer: Tracer?
    do {
        tracer = try options.tracePath.map(Tracer.init(path:))
    } catch {
        FileHandle.standardError.write(Data("diffable: \(error)\n".utf8))
        exit(2)
    }
    if isatty(0) != 0 {
        // Someone typing at the daemon: say what it reads and how to leave.
        FileHandle.standardError.write(Data(CommandLineAction.terminalHint.utf8))
    }
    let server = Server(logger: Logger(level: options.logLevel))
    let status = StdioSession(server: server, tracer: tracer, parentProcessID: options.clientProcessID,
                              maxMessageBytes: options.maxMessageBytes).run()
    Logger.flush()
    exit(status)
}
