import FoundationEssentials
import Glibc

/// Keeps stdout for the protocol alone.
package enum StandardStreams {
    /// Moves the protocol stream to a private descriptor and points fd 1 at stderr.
    ///
    /// After this, a stray `print` anywhere in the process (a library, a debugging leftover) lands on stderr and can
    /// never corrupt the protocol stream. SIGPIPE is ignored so a host that closes its end yields `EPIPE`, which the
    /// writer turns into a quiet exit, instead of killing the process.
    package static func reserveProtocolOutput() -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        fflush(nil)
        let protocolFD = dup(STDOUT_FILENO)
        guard protocolFD >= 0 else { return STDOUT_FILENO }
        _ = fcntl(protocolFD, F_SETFD, FD_CLOEXEC)
        _ = dup2(STDERR_FILENO, STDOUT_FILENO)
        return protocolFD
    }
}
