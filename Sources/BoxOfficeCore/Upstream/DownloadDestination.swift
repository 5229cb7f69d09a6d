import Dispatch
import FoundationEssentials
import Glibc
import NIOConcurrencyHelpers

/// Which addresses a poster download may connect to: public unicast only.
///
/// An image URL comes from a public search index that anyone can influence, so without this a download could reach
/// the machine itself, its private network, or a cloud VM's metadata service (`169.254.169.254`), and the answer's
/// status, type or bytes would tell what is there. The classification is pure (``category(ipv4:)``,
/// ``category(ipv6:)``, ``category(literal:)``); ``verdict(host:)`` applies it to every address a host name resolves
/// to and names the one to connect to (``checked(host:)`` runs it off the pool with a time limit), and the
/// transport checks each redirect hop again. `BOXOFFICE_ALLOW_PRIVATE_DOWNLOADS=1` (or
/// `--allow-private-downloads`) turns it off for tests and private mirrors.
package enum DownloadDestination {
    /// Why an address is refused (a phrase for the error message), or nil for a public address.
    package static func category(ipv4 address: [UInt8]) -> String? {
        guard address.count == 4 else { return "not an address" }
        let (a, b, c) = (address[0], address[1], address[2])
        switch a {
        case 0: return "unspecified (0.0.0.0/8)"
        case 10: return "private (10.0.0.0/8)"
        case 127: return "loopback (127.0.0.0/8)"
        case 100 where b & 0xC0 == 64: return "shared address space (100.64.0.0/10)"
        case 169 where b == 254: return "link-local (169.254.0.0/16)"
        case 172 where b & 0xF0 == 16: return "private (172.16.0.0/12)"
        case 192 where b == 168: return "private (192.168.0.0/16)"
        case 192 where b == 0 && c == 0: return "IETF protocol assignments (192.0.0.0/24)"
        case 198 where b & 0xFE == 18: return "benchmarking (198.18.0.0/15)"
        case 224...239: return "multicast (224.0.0.0/4)"
        case 240...255: return "reserved or broadcast (240.0.0.0/4)"
        default: return nil
        }
    }

    /// The same for a 16-byte IPv6 address; IPv4-mapped, -compatible and NAT64 (`64:ff9b::/96`) addresses are
    /// judged by the IPv4 address inside.
    package static func category(ipv6 address: [UInt8]) -> String? {
        guard address.count == 16 else { return "not an address" }
        let head = address[0..<10]
        if head.allSatisfy({ $0 == 0 }) {
            let (p, q) = (address[10], address[11])
            if p == 0xFF && q == 0xFF { return category(ipv4: Array(address[12...])).map { "IPv4-mapped \($0)" } }
            if p == 0 && q == 0 {
                if address[12...].allSatisfy({ $0 == 0 }) { return "unspecified (::)" }
                if address[12...14].allSatisfy({ $0 == 0 }) && address[15] == 1 { return "loopback (::1)" }
                return category(ipv4: Array(address[12...])).map { "IPv4-compatible \($0)" }
            }
        }
        if address[0...3] == [0x00, 0x64, 0xFF, 0x9B], address[4..<12].allSatisfy({ $0 == 0 }) {
            return category(ipv4: Array(address[12...])).map { "NAT64 \($0)" }
        }
        switch address[0] {
        case 0xFF: return "multicast (ff00::/8)"
        case 0xFC, 0xFD: return "unique-local (fc00::/7)"
        case 0xFE where address[1] & 0xC0 == 0x80: return "link-local (fe80::/10)"
        case 0xFE where address[1] & 0xC0 == 0xC0: return "site-local (fec0::/10)"
        default: break
        }
        if address[0] == 0x20, address[1] == 0x01, address[2] == 0x0D, address[3] == 0xB8 {
            return "documentation (2001:db8::/32)"
        }
        if address[0...3] == [0x00, 0x64, 0xFF, 0x9B], address[4] == 0x00, address[5] == 0x01 {
            return "local-use NAT64 (64:ff9b:1::/48)"
        }
        if address[0] == 0x20, address[1] == 0x02 {
            return category(ipv4: Array(address[2...5])).map { "6to4 \($0)" }
        }
        return nil
    }

    /// An address written as text, in every form the C library accepts as one (`127.0.0.1`, `127.1`,
    /// `2130706433`, `0x7f000001`, `::1`, `[::1]`, `::ffff:10.0.0.1`): `.some(nil)` for a public address,
    /// `.some(reason)` for a refused one, nil when the text is not an address (a host name).
    package static func category(literal: String) -> String?? {
        var text = literal
        if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 {
            return .some(category(ipv6: withUnsafeBytes(of: &v6) { Array($0) }))
        }
        var v4 = in_addr()
        // inet_aton, unlike inet_pton, takes the old forms too (one number, hexadecimal, fewer than four parts),
        // as the resolver does.
        if inet_aton(text, &v4) != 0 {
            return .some(category(ipv4: withUnsafeBytes(of: &v4) { Array($0) }))
        }
        return nil
    }

    /// How long a host name's lookup may take before the download is refused.
    package static let lookupLimit = 5.0

    /// ``verdict(host:)`` on a thread of its own, so a name server that never answers holds no thread of the
    /// cooperative pool (`getaddrinfo` cannot be cancelled); a lookup that takes longer than ``lookupLimit`` refuses
    /// the download.
    package static func checked(host: String) async -> DestinationVerdict {
        let once = Once()
        return await withCheckedContinuation { continuation in
            // A serial queue of its own runs on an overcommitting thread: a lookup that blocks holds no thread
            // another queue is waiting for.
            DispatchQueue(label: "boxoffice-worker.lookup").async {
                once.resume(continuation, with: verdict(host: host))
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + lookupLimit) {
                once.resume(continuation, with: .refused("\(host) could not be looked up within \(Int(lookupLimit)) s"))
            }
        }
    }

    /// Resumes a continuation once, whichever of the lookup and its time limit comes first.
    private final class Once: Sendable {
        private let done = NIOLockedValueBox(false)

        func resume(_ continuation: CheckedContinuation<DestinationVerdict, Never>, with value: DestinationVerdict) {
            let first = done.withLockedValue { done -> Bool in
                defer { done = true }
                return !done
            }
            if first { continuation.resume(returning: value) }
        }
    }

    /// Why `host` may not be downloaded from, or nil (``verdict(host:)``'s reason).
    package static func refusal(host: String) -> String? {
        if case .refused(let reason) = verdict(host: host) { return reason }
        return nil
    }

    /// Resolves `host` and refuses it when any of its addresses is not public, or when it does not resolve (a name
    /// whose first lookup fails and whose second answers a private address must not get through); else the
    /// address the download is to connect to, the first one the lookup gave. Connecting to that address, not to
    /// the name, is what makes the check hold: a name server that answered a public address here and a private one
    /// to a second lookup (DNS rebinding) is never asked again.
    package static func verdict(host: String) -> DestinationVerdict {
        if let literal = category(literal: host) {
            return literal.map { .refused("\(host) is a \($0) address") } ?? .allowed(connectTo: nil)
        }
        if host.contains("[") || host.contains("]") || host.contains("%") {
            return .refused("\(host) is not a host name or an address")
        }
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        // Only the families this machine has an address in (no AAAA answers without IPv6): the address pinned is one
        // the machine can reach, and the download connects to nothing else.
        hints.ai_flags = AI_ADDRCONFIG
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else {
            return .refused("\(host) does not resolve")
        }
        defer { freeaddrinfo(list) }
        var chosen: String?
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let entry = cursor {
            defer { cursor = entry.pointee.ai_next }
            guard let address = entry.pointee.ai_addr else { continue }
            let found: String?
            var numeric = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            switch Int32(address.pointee.sa_family) {
            case AF_INET:
                found = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { pointer in
                    var raw = pointer.pointee.sin_addr
                    return category(ipv4: withUnsafeBytes(of: &raw) { Array($0) })
                }
            case AF_INET6:
                found = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                    var raw = pointer.pointee.sin6_addr
                    return category(ipv6: withUnsafeBytes(of: &raw) { Array($0) })
                }
            default:
                continue
            }
            if let found { return .refused("\(host) resolves to a \(found) address") }
            if chosen == nil,
                getnameinfo(
                    address, entry.pointee.ai_addrlen, &numeric, socklen_t(numeric.count), nil, 0, NI_NUMERICHOST) == 0
            {
                chosen = String(decoding: numeric.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
        }
        guard let chosen else { return .refused("\(host) resolves to no address a download can use") }
        return .allowed(connectTo: chosen)
    }
}

/// What a download's destination check says about one hop.
package enum DestinationVerdict: Sendable, Equatable {
    /// Not fetched, and why.
    case refused(String)
    /// Fetched; from `connectTo` (a numeric address the check vetted) instead of a new lookup of the host name,
    /// when there is one.
    case allowed(connectTo: String?)
}
