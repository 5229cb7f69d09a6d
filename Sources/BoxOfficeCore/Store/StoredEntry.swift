/// One cached upstream body.
package struct StoredEntry: Sendable, Equatable {
    package var body: [UInt8]
    /// Seconds since 1970 (UTC) when it was fetched.
    package var fetchedAt: Double
    /// The KST day it was fetched on (as the worker's calendar saw it): freshness rules are reckoned in days.
    package var fetchedDay: CalendarDate
    package var origin: Source.Origin

    package init(body: [UInt8], fetchedAt: Double, fetchedDay: CalendarDate, origin: Source.Origin) {
        self.body = body
        self.fetchedAt = fetchedAt
        self.fetchedDay = fetchedDay
        self.origin = origin
    }
}

/// An entry on its way to the store: what the write-behind queue batches (``BoxOfficeStore/storeAll(_:)``).
package struct StoredItem: Sendable {
    package var key: String
    package var service: Service
    package var entry: StoredEntry

    package init(key: String, service: Service, entry: StoredEntry) {
        self.key = key
        self.service = service
        self.entry = entry
    }
}

/// The poster index's view of an image: its digest names the file `posters/<sha256>.<ext>` on every machine.
package struct StoredImage: Sendable, Equatable {
    package var sha256: String
    package var mimeType: String
    package var bytes: Int

    package init(sha256: String, mimeType: String, bytes: Int) {
        self.sha256 = sha256
        self.mimeType = mimeType
        self.bytes = bytes
    }
}
