import Foundation

/// A TCP socket on 127.0.0.1, on a port the kernel picks: the listener of a test's server, or — not listening — a
/// port that refuses every connection and, held for the whole test, is given to no other test running beside it.
package enum LoopbackSocket {
    /// The descriptor and its port; nil when the kernel refuses a socket, the address or the listen. With
    /// `backlog`, the socket listens (and may be bound again at once: `SO_REUSEADDR`).
    package static func make(listening backlog: Int32?) -> (fd: Int32, port: Int)? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var yes: Int32 = 1
        if backlog != nil { setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size)) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ready = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && (backlog.map { listen(fd, $0) == 0 } ?? true)
                    && getsockname(fd, pointer, &length) == 0
            }
        }
        guard ready else {
            close(fd)
            return nil
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }
}
