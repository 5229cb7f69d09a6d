/// The MCP protocol versions this server speaks, by era.
///
/// A *legacy* version is agreed once per session with `initialize`; a *modern* one (2026-07-28 and later) is named
/// in every request's `_meta`. One process serves either era, request by request.
package enum MCPVersion {
    /// The modern versions, newest first.
    package static let modern = ["2026-07-28"]
    /// The handshake-era versions, newest first.
    package static let legacy = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]
    /// Every supported version, newest first (`server/discover`'s `supportedVersions`, `-32022`'s `supported`).
    package static var supported: [String] { modern + legacy }
    /// The only version with JSON-RPC batches.
    package static let batches = "2025-03-26"

    /// The version `initialize` answers with for a requested one: the same when it is a legacy version this
    /// server speaks, else its newest legacy version (the client then decides whether it can go on).
    package static func negotiated(_ requested: String?) -> String {
        requested.flatMap { legacy.contains($0) ? $0 : nil } ?? legacy[0]
    }
}
