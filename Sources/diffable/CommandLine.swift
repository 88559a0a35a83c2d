import DiffableServer

/// The daemon's command line, parsed without side effects so it can be tested.
enum CommandLineAction: Equatable, Sendable {
    case serve(ServeOptions)
    /// `diffable replay FILE`: re-run a trace and compare the responses.
    case replay(path: String)
    case printHelp
    case printVersion
    /// Unknown or malformed arguments: print the message and usage to stderr, exit 2.
    case usageError(String)

    struct ServeOptions: Equatable, Sendable {
        var logLevel = Logger.Level.warning
        /// `--clientProcessId N`: end the session when that process is gone
        /// (as `initialize`'s `processId` does).
        var clientProcessID: Int32?
        /// `--trace FILE`: append every message in both directions to FILE.
        var tracePath: String?
        /// `--max-message-bytes N`: messages with a larger body are skipped
        /// and answered with an error (see `MessageFramer`).
        var maxMessageBytes = MessageFramer.defaultMaxMessageBytes

        init(logLevel: Logger.Level = .warning, clientProcessID: Int32? = nil, tracePath: String? = nil,
             maxMessageBytes: Int = MessageFramer.defaultMaxMessageBytes) {
            self.logLevel = logLevel
            self.clientProcessID = clientProcessID
            self.tracePath = tracePath
            self.maxMessageBytes = maxMessageBytes
        }
    }

    static let usage = """
        usage: diffable [--stdio] [--log-level error|warning|info|debug]
                        [--clientProcessId PID] [--trace FILE] [--max-message-bytes N]
               diffable replay FILE
               diffable --help | --version

        Serves diffable data sources over JSON-RPC 2.0 on stdin/stdout.
        Framing is detected from the first byte: LSP `Content-Length` headers,
        or one JSON message per line when the input starts with `{` or `[`.
        Logs go to stderr (default level: warning). See protocol/README.md.

          --stdio                 accepted for editors' launchers (stdio is the only transport)
          --clientProcessId PID   exit when process PID is gone (like initialize's processId)
          --trace FILE            append every message, both directions, to FILE (NDJSON)
          --max-message-bytes N   skip, and answer with error 1010, any message whose body is
                                  over N bytes (default 1073741824, 1 GiB); it is never buffered
          replay FILE             re-send a trace's requests to a fresh server; exit 0 when
                                  every response matches the recorded one, 1 at the first that differs
        """

    /// One line on stderr when stdin is a terminal.
    static let terminalHint = """
        diffable: reading JSON-RPC from a terminal: type one JSON message per line, starting with \
        {"jsonrpc":"2.0","id":1,"method":"initialize"} (a first line that is not JSON switches to LSP \
        Content-Length framing); Ctrl-D quits. See protocol/README.md.

        """

    static func parse(_ arguments: [String]) -> CommandLineAction {
        if arguments.first == "replay" {
            guard arguments.count == 2 else { return .usageError("replay needs exactly one FILE") }
            return .replay(path: arguments[1])
        }
        var options = ServeOptions()
        var index = 0
        // `--name value` or `--name=value`.
        func value(of name: String) -> String?? {
            let argument = arguments[index]
            if argument == name {
                guard index + 1 < arguments.count else { return .some(nil) }
                index += 1
                return arguments[index]
            }
            if argument.hasPrefix(name + "=") { return String(argument.dropFirst(name.count + 1)) }
            return nil
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--help", "-h":
                return .printHelp
            case "--version":
                return .printVersion
            case "--stdio":
                break
            default:
                if let level = value(of: "--log-level") {
                    guard let level else { return .usageError("--log-level needs a value") }
                    guard let parsed = Logger.Level.allCases.first(where: { $0.name == level }) else {
                        return .usageError("unknown log level \"\(level)\"")
                    }
                    options.logLevel = parsed
                } else if let pid = value(of: "--clientProcessId") {
                    guard let pid, let parsed = Int32(pid), parsed > 0 else {
                        return .usageError("--clientProcessId needs a positive process id")
                    }
                    options.clientProcessID = parsed
                } else if let limit = value(of: "--max-message-bytes") {
                    guard let limit, let parsed = Int(limit), parsed > 0 else {
                        return .usageError("--max-message-bytes needs a positive number of bytes")
                    }
                    options.maxMessageBytes = parsed
                } else if let path = value(of: "--trace") {
                    guard let path, !path.isEmpty else { return .usageError("--trace needs a FILE") }
                    options.tracePath = path
                } else {
                    return .usageError("unknown argument \"\(argument)\"")
                }
            }
            index += 1
        }
        return .serve(options)
    }
}
