import NIOCore
import NIOHTTP1

/// The last handler of a plain connection's pipeline: hands each part of an answer to the exchange using the
/// connection, and tells the pool when an idle connection is closed or speaks out of turn.
///
/// Confined to the connection's event loop, as every handler is.
final class PlainHTTPConnection: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    /// The exchange the connection serves now; nil while it is idle in the pool.
    var exchange: PlainHTTPExchange?
    /// Called once when the connection closes (or is closed) while idle, so the pool forgets it.
    var whenClosedIdle: (() -> Void)?

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        guard let exchange else {
            // An idle connection has nothing to say; a server that does is not trusted with the next request.
            context.close(promise: nil)
            return
        }
        exchange.received(part)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let exchange {
            self.exchange = nil
            exchange.connectionClosed()
        } else {
            whenClosedIdle?()
            whenClosedIdle = nil
        }
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A malformed answer (the HTTP parser's error) or a failed socket: the exchange fails with it and the
        // connection is not used again.
        // An answer cut short by the connection's end reads to the parser as an end in the wrong place: that is
        // the connection closing before the answer was complete, as AsyncHTTPClient reports it.
        let exchange = self.exchange
        self.exchange = nil
        if let parse = error as? HTTPParserError, parse == .invalidEOFState {
            exchange?.connectionClosed()
        } else {
            exchange?.fail(error)
        }
        context.close(promise: nil)
    }
}
