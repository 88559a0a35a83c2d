import DiffableProtocol
/// The daemon's name and version, reported by `initialize` and `--version`.
public enum ServerInfo {
    public static let name = "diffable"
    public static let version = "0.1.0"
}
