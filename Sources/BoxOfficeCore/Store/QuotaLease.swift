/// A worker asking for calls from the day's shared budget (``BoxOfficeStore/takeLease(_:)``).
package struct LeaseRequest: Sendable {
    package var service: Service
    package var day: CalendarDate
    /// Who holds the lease: host, process and a random part, so two workers never share one.
    package var worker: String
    /// The most calls wanted; near the limit fewer are granted (down to one).
    package var wanted: Int
    package var limit: Int
    /// How long the lease holds, by the database's clock; after that its unspent calls may be reclaimed.
    package var seconds: Double

    package init(service: Service, day: CalendarDate, worker: String, wanted: Int, limit: Int, seconds: Double) {
        self.service = service
        self.day = day
        self.worker = worker
        self.wanted = wanted
        self.limit = limit
        self.seconds = seconds
    }
}

/// What a lease request got.
package struct LeaseGrant: Sendable, Equatable {
    /// The lease's id, for ``BoxOfficeStore/spend(lease:count:)``; nil when nothing was granted.
    package var lease: Int64?
    package var granted: Int
    /// The day's shared count after the grant: calls made and calls leased but not yet made.
    package var allotted: Int

    package init(lease: Int64?, granted: Int, allotted: Int) {
        self.lease = lease
        self.granted = granted
        self.allotted = allotted
    }
}

/// A day's shared quota figures.
package struct QuotaCount: Sendable, Equatable {
    /// Calls made and calls leased but not yet made: what the limit is checked against.
    package var allotted: Int
    /// Calls recorded as made.
    package var spent: Int

    package init(allotted: Int, spent: Int) {
        self.allotted = allotted
        self.spent = spent
    }
}
