import BoxOfficeCore
package import BoxOfficeMethods
import BoxOfficeViews
package import JSONCore
package import JSONRPC
package import JSONSchema
import Logging

/// A method as JSON-RPC and MCP serve it when its params may ask for a presentation: `chat` (a format's messages,
/// the result's `chat` member) and `card` (a PNG of the list, the result's `card` member). The method itself answers
/// its typed input and knows no view; this reads what the params ask for, hands the output to the ``Presenter`` and
/// adds what it made to the result. Without either param it is the method's own reply, untouched (a cached day
/// is still answered on the spot from its kept text); with `chat` alone a ready answer stays ready.
package struct PresentingMethod<Method: TypedMethod>: RPCMethod where Method.Output: PresentableAnswer {
    package let method: Method
    let presenter: Presenter

    package init(_ method: Method, presenter: Presenter) {
        self.method = method
        self.presenter = presenter
    }

    package var name: String { method.name }
    package var summary: String { method.summary }
    package var paramsSchema: JSONSchema { method.paramsSchema }
    package var resultSchema: JSONValue { method.resultSchema }

    package func start(_ params: JSONObject, _ context: RequestContext) throws -> RPCReply {
        // The schema allows only the names these read.
        let chat = params["chat"]?.stringValue.flatMap(ChatFormat.init(rawValue:))
        let card = params["card"]?.stringValue.flatMap(ListLayout.init(rawValue:))
        guard chat != nil || card != nil else { return try method.start(params, context) }
        let reply = try method.start(try Method.Input(params: params), in: context)
        if let chat, card == nil, case .ready(let output) = reply {
            return .ready(.value(try Self.adding(chat: chat, of: output.view, to: method.result(output))))
        }
        return .work { [method, presenter] in
            let output = try await reply.value()
            let view = output.view
            var png: [UInt8]?
            if let card {
                let logger = presenter.runtime.logger
                png = try await presenter.card(view, layout: card) { logger.warning("card: \($0)") }
            }
            return .value(
                try Self.adding(
                    chat: chat, of: view, card: png, to: method.result(output), files: presenter.runtime.cardFiles))
        }
    }

    /// `result` (an object) with the presentations asked for as its members: `chat: {format, messages}`, and
    /// `card: {mimeType, width, height, bytes, data}` (or `path` and `sha256` for a card kept in `files`).
    static func adding(
        chat: ChatFormat?, of view: AnswerView, card png: [UInt8]? = nil, to result: RPCResult,
        files: FilesDirectory? = nil
    ) throws -> JSONValue {
        let value = try result.value()
        guard case .object(var object) = value else { return value }
        if let chat, case .messages(let format, let messages) = Presenter.messages(view, chat) {
            object["chat"] = ["format": .string(format.rawValue), "messages": .array(messages.map(\.json))]
        }
        if let png {
            let file = try files.map { (files) throws(RPCError) in
                try withWireErrors { () throws(BoxOfficeError) in try files.keep(png, mimeType: "image/png") }
            }
            object["card"] = CardImage(png: png, file: file).json
        }
        return .object(object)
    }
}
