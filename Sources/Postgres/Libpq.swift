import CPostgres

/// libpq, loaded on first use (a worker without a `postgres://` store never loads it).
package enum Libpq {
    /// The table of libpq's functions. - Throws: `.library`, saying what to install, when libpq.so.5 is missing.
    static func table() throws(PostgresError) -> BOLibpq {
        var failure = [CChar](repeating: 0, count: 160)
        guard let table = bo_libpq_open(&failure, failure.count) else {
            let missing = String(decoding: failure.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw PostgresError(
                .library,
                "a PostgreSQL store needs libpq, which this machine lacks (\(missing) could not be loaded); install it: apt install libpq5 (Debian, Ubuntu), dnf install libpq (Fedora, RHEL), apk add libpq (Alpine)"
            )
        }
        return table.pointee
    }

    /// libpq's version as a number (150018 for 15.18). - Throws: `.library` when libpq cannot be loaded.
    package static func version() throws(PostgresError) -> Int {
        Int(try table().PQlibVersion())
    }
}
