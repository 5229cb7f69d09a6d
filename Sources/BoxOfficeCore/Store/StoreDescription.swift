/// Which store, where: what messages and `worker.status` name, redacted so that a password never reaches them.
package struct StoreDescription: Sendable, Equatable {
    package enum Kind: String, Sendable {
        case sqlite, postgres
    }

    package var kind: Kind
    /// The SQLite database's path, or the PostgreSQL URL with its password replaced by `***`.
    package var location: String

    package init(kind: Kind, location: String) {
        self.kind = kind
        self.location = location
    }
}

/// Whether a store works now, for `worker.status` (``BoxOfficeStore/health()``).
package struct StoreHealth: Sendable, Equatable {
    package var connected: Bool
    /// The schema version the database holds; nil until it was read.
    package var schemaVersion: Int?

    package init(connected: Bool, schemaVersion: Int?) {
        self.connected = connected
        self.schemaVersion = schemaVersion
    }
}
