/// The daemon's command line, parsed without side effects so it can be tested.
public enum CommandLineAction: Equatable, Sendable {
    case serve(Logger.Level)
    case printHelp
    case printVersion
    /// Unknown or malformed arguments: print the message and usage to stderr, exit 2.
    case usageError(String)

    public static let usage = """
        usage: diffable [--log-level error|warning|info|debug]
               diffable --help | --version

        Serves diffable data sources over JSON-RPC 2.0 on stdin/stdout.
        Framing is detected from the first byte: LSP `Content-Length` headers,
        or one JSON message per line when the input starts with `{` or `[`.
        Logs go to stderr (default level: warning). See protocol/README.md.
        """

    public static func parse(_ arguments: [String]) -> CommandLineAction {
        var level = Logger.Level.warning
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--help", "-h":
                return .printHelp
            case "--version":
                return .printVersion
            case "--log-level":
                guard index + 1 < arguments.count else { return .usageError("--log-level needs a value") }
                index += 1
                guard let parsed = Logger.Level.allCases.first(where: { $0.name == arguments[index] }) else {
                    return .usageError("unknown log level \"\(arguments[index])\"")
                }
                level = parsed
            default:
                if argument.hasPrefix("--log-level=") {
                    let value = String(argument.dropFirst("--log-level=".count))
                    guard let parsed = Logger.Level.allCases.first(where: { $0.name == value }) else {
                        return .usageError("unknown log level \"\(value)\"")
                    }
                    level = parsed
                } else {
                    return .usageError("unknown argument \"\(argument)\"")
                }
            }
            index += 1
        }
        return .serve(level)
    }
}
