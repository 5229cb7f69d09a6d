import FoundationEssentials
import Glibc

/// A `postgres://user:password@host:port/database?sslmode=…` URL, parsed, with its redacted form.
///
/// The password lives only in ``password``; ``redacted`` (the form every message, log line and `worker.status`
/// shows) replaces it with `***`, and ``description`` is the redacted form too, so interpolating the value by
/// mistake never leaks it.
package struct DatabaseURL: Sendable, CustomStringConvertible {
    /// libpq's `sslmode` values that mean something for a client with no client certificate.
    package enum TLSMode: String, Sendable, CaseIterable {
        /// No TLS.
        case disable
        /// TLS when the server offers it, without verifying its certificate (libpq's default).
        case prefer
        /// TLS always, without verifying the certificate (libpq's `require` and `verify-ca` without a root file).
        case require
        /// TLS always, the certificate verified against the system's roots and the host name.
        case verifyFull = "verify-full"
    }

    package var host: String
    package var port: Int
    package var user: String
    package var password: String?
    package var database: String
    package var tls: TLSMode

    package var redacted: String {
        let credentials = password == nil ? user : "\(user):***"
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "postgres://\(credentials)@\(shownHost):\(port)/\(database)"
    }

    package var description: String { redacted }

    /// Parses `text`; the error message never repeats the text (it may hold a password).
    package init(_ text: String) throws(StoreError) {
        guard let components = URLComponents(string: text),
            let scheme = components.scheme?.lowercased(), scheme == "postgres" || scheme == "postgresql"
        else {
            throw StoreError(.misconfigured, "the database URL must look like postgres://user:password@host:5432/db")
        }
        guard let host = components.host, !host.isEmpty else {
            throw StoreError(.misconfigured, "the database URL has no host")
        }
        guard let user = components.user, !user.isEmpty else {
            throw StoreError(.misconfigured, "the database URL has no user name")
        }
        self.host = host
        self.user = PercentEncoding.decode(user) ?? user
        password = components.password.map { PercentEncoding.decode($0) ?? $0 }
        port = components.port ?? 5432
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        database = path.isEmpty ? self.user : (PercentEncoding.decode(path) ?? path)
        var tls = TLSMode.prefer
        for item in components.queryItems ?? [] where item.name == "sslmode" {
            switch item.value ?? "" {
            case "disable", "allow": tls = .disable
            case "prefer": tls = .prefer
            case "require", "verify-ca": tls = .require
            case "verify-full": tls = .verifyFull
            default:
                throw StoreError(
                    .misconfigured,
                    "the database URL's sslmode must be disable, allow, prefer, require, verify-ca or verify-full")
            }
        }
        self.tls = tls
    }

    /// The connection's keywords for libpq: the URL's parts, the TLS mode, and the session's settings (the name
    /// `pg_stat_activity` shows, and a statement stuck behind a lock ended on the server too, not only for the
    /// waiting client).
    ///
    /// `verify-full` verifies against the system's roots, as the URL's documentation promises: libpq 16 and later
    /// take `sslrootcert=system`; older ones are given the system's bundle where one of the usual places has it
    /// (libpq's own default, `~/.postgresql/root.crt`, is a file few users have). `PGSSLROOTCERT` still wins.
    package func libpqParameters(
        statementTimeout: Duration, libpqVersion: Int? = nil, environment: [String: String] = [:]
    )
        -> [(String, String)]
    {
        var parameters: [(String, String)] = [
            ("host", host), ("port", "\(port)"), ("user", user), ("dbname", database),
            ("sslmode", tls.rawValue), ("application_name", "boxoffice-worker"), ("client_encoding", "UTF8"),
            (
                "options",
                "-c statement_timeout=\(statementTimeout.components.seconds * 1000 + statementTimeout.components.attoseconds / 1_000_000_000_000_000)"
            ),
        ]
        if let password { parameters.append(("password", password)) }
        if tls == .verifyFull, environment["PGSSLROOTCERT"] == nil {
            if (libpqVersion ?? 0) >= 160_000 {
                parameters.append(("sslrootcert", "system"))
            } else if let bundle = Self.systemRoots.first(where: { access($0, R_OK) == 0 }) {
                parameters.append(("sslrootcert", bundle))
            }
        }
        return parameters
    }

    /// Where Debian and Ubuntu, Fedora and RHEL, and Alpine keep the system's certificate bundle.
    static let systemRoots = [
        "/etc/ssl/certs/ca-certificates.crt", "/etc/pki/tls/certs/ca-bundle.crt", "/etc/ssl/cert.pem",
    ]

    /// `text` with the password of any `scheme://user:password@` in it replaced by `***`: for error texts that
    /// come from elsewhere and might quote the URL.
    package static func redact(_ text: String, password: String?) -> String {
        guard let password, !password.isEmpty else { return text }
        return text.replacing(password, with: "***")
    }
}
