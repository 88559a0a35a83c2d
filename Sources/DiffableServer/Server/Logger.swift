import Foundation

/// Writes log lines to stderr only: stdout carries protocol and nothing else.
public struct Logger: Sendable {
    public enum Level: Int, Comparable, Sendable, CaseIterable {
        case error, warning, info, debug
        public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
        public var name: String { String(describing: self) }
    }

    public var level: Level

    public init(level: Level = .warning) {
        self.level = level
    }

    public func log(_ level: Level, _ message: @autoclosure () -> String) {
        guard level <= self.level else { return }
        let line = "diffable [\(level.name)] \(message())\n"
        FileHandle.standardError.write(Data(line.utf8))
    }
}
