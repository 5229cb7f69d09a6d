import JSONRPC
import Logging

extension ServerLog {
    /// Sends the protocol layer's log lines to swift-log.
    static func adapting(_ logger: Logger) -> ServerLog {
        ServerLog { level, message, metadata in
            let mapped: Logger.Level = switch level {
            case .trace: .trace
            case .debug: .debug
            case .info: .info
            case .notice: .notice
            case .warning: .warning
            case .error: .error
            case .critical: .critical
            }
            logger.log(level: mapped, "\(message)", metadata: metadata.mapValues { .string($0) })
        }
    }
}
