/// The PostgreSQL schema, versioned in `boxoffice_schema` and brought up to date once per process inside one
/// transaction that first takes a transaction-scoped advisory lock: workers starting at the same instant on an
/// empty database migrate one after another (PostgreSQL's own `CREATE TABLE IF NOT EXISTS` is not safe against a
/// concurrent twin; the lock makes it unnecessary).
enum PostgresSchema {
    /// The newest version this worker knows.
    static let version = 1
    /// The advisory lock's key: any constant, the same in every worker ("boxoffic" in ASCII).
    static let lockKey: Int64 = 0x626F_786F_6666_6963

    /// The steps, in order: step `n` takes the database from version `n` to `n + 1`; one statement per string
    /// (the extended protocol runs one at a time).
    static let steps: [[String]] = [
        [
            """
            CREATE TABLE upstream (
                key text PRIMARY KEY, service text NOT NULL, body bytea NOT NULL,
                fetched_at double precision NOT NULL, fetched_day text NOT NULL, origin text NOT NULL)
            """,
            """
            CREATE TABLE images (
                url text PRIMARY KEY, sha256 text NOT NULL, mime_type text NOT NULL, bytes integer NOT NULL)
            """,
            "CREATE TABLE image_bytes (sha256 text PRIMARY KEY, body bytea NOT NULL)",
            """
            CREATE TABLE quota_days (
                service text NOT NULL, day text NOT NULL, allotted bigint NOT NULL, last_grant bigint NOT NULL,
                PRIMARY KEY (service, day))
            """,
            """
            CREATE TABLE quota_leases (
                lease bigserial PRIMARY KEY, service text NOT NULL, day text NOT NULL, worker text NOT NULL,
                granted bigint NOT NULL, spent bigint NOT NULL, reclaimed bigint NOT NULL,
                expires_at double precision NOT NULL)
            """,
            "CREATE INDEX quota_leases_day ON quota_leases (service, day)",
        ]
    ]
}
