package import JSONCore
package import JSONRPC
import JSONSchema

/// A worker method with one typed input and one typed output, the same for every face.
///
/// JSON-RPC dispatch, MCP tools, resources and the prompt reach it through ``RPCMethod/enter(_:_:)``: the params
/// checked by the method's schema, then decoded once into ``Input``. The CLI builds the ``Input`` from its flags and
/// calls ``call(_:_:)``, which checks the params that input stands for against the same schema. Either way the
/// rules and their messages are the method's own, and the answer is ``start(_:in:)``'s.
package protocol TypedMethod: CatalogMethod {
    associatedtype Input: MethodInput
    associatedtype Output: Sendable

    /// The one step: the output at once, or the work that makes it. Rules no schema can express (a date's range)
    /// are checked here.
    ///
    /// - Important: Runs on the responder thread for JSON-RPC and MCP: never block or wait here.
    func start(_ input: Input, in context: RequestContext) throws(RPCError) -> Reply<Output>

    /// The output as the method's result.
    func result(_ output: Output) -> RPCResult
}

/// The params of one method as one value: decoded once from params that passed the schema, or built by the CLI.
///
/// Its params are listed once, in ``fields``: decoding them (``init(params:)``) and writing them back (``params``)
/// are the list's.
package protocol MethodInput: Sendable {
    /// Every param, by its name in the method's params schema (`_meta` and the presentations aside).
    static var fields: [InputField<Self>] { get }
    /// The input before any param is read: every default, a required text empty.
    static var blank: Self { get }
}

/// The input of a method that takes no params (but `_meta`).
package struct NoInput: MethodInput {
    package init() {}
    package static let fields: [InputField<Self>] = []
    package static let blank = NoInput()
}

extension TypedMethod {
    package func start(_ params: JSONObject, _ context: RequestContext) throws -> RPCReply {
        switch try start(try Input(params: params), in: context) {
        case .ready(let output): return .ready(result(output))
        case .work(let work): return .work { result(try await work()) }
        }
    }

    /// The in-process entrance (the CLI's): the input's params checked against the method's schema, then the one
    /// step, awaited.
    package func call(_ input: Input, _ context: RequestContext) async throws -> Output {
        try check(input)
        switch try start(input, in: context) {
        case .ready(let output): return output
        case .work(let work): return try await work()
        }
    }

    /// Checks an input built outside JSON against the method's schema: `-32602` with the schema's own message.
    package func check(_ input: Input) throws(RPCError) {
        let errors = paramsSchema.validate(.object(input.params))
        guard errors.isEmpty else { throw RPCError.invalidParams(errors) }
    }
}
