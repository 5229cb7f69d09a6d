package import JSONCore
import NIOConcurrencyHelpers
import Synchronization

/// The filter face's rules (`boxoffice-worker pipe [METHOD]`): every input line is one job and gets exactly one
/// outcome line, in input order, whatever the line holds (blank, unparsable, too long, a batch).
///
/// A job line is, with a method given, a params object (its `id` member echoed, not passed on) or a bare string for
/// the method's bare member (the date, the code, the title); without one, `{"method", "params"?, "id"?}`. An outcome
/// line is `{"id"?: …, "result": …}` or `{"id"?: …, "error": {"code", "message", "reason", "data"?}}`: the result
/// and the error under distinct keys, for `jq`, and the error's reason on the error itself.
///
/// Line N of the output answers line N of the input, so an outcome carries no line number: GNU parallel's `--pipe
/// --keep-order` then gives the very lines one filter gives, whatever the chunks (each chunk's process counts from 1).
///
/// Inside the server a job is an ordinary request (the same validation, dispatch, cache and fan-out); its id is
/// `[N]` or `[N, echoed id]`, unique by the line number, which the outcome line takes apart again. No job has a
/// `_meta` (so none reports progress) and none cancels another.
package struct JobLines: Sendable {
    /// The method every line is a job for; nil when each line names its own.
    package var method: String?
    /// The member a bare string goes to, by method; a method without one takes objects only.
    package var bareMembers: [String: String]
    /// What the lines came to, for the exit status and the closing summary.
    package let tally = JobTally()

    package init(method: String?, bareMembers: [String: String]) {
        self.method = method
        self.bareMembers = bareMembers
    }

    /// The request for line `number`, or the error that is its outcome; both with the id the outcome will carry.
    func request(for line: ParsedLine, number: Int) -> (id: JSONValue, Result<Request, RPCError>) {
        var id: JSONValue = [.int(number)]
        let found: Result<Request, RPCError>
        switch line {
        case .tooLong, .parseError:
            preconditionFailure("answered before a request is made")
        case .blank:
            found = .failure(RPCError(.invalidRequest, "a blank line: no job to do"))
        case .text(nil):
            found = .failure(RPCError(.parseError, "Parse error: the line is not valid UTF-8"))
        case .text(let text?), .message(.string(let text)):
            found = bare(text)
        case .message(.object(var object)):
            if let echoed = object["id"] {
                id = [.int(number), echoed]
                object["id"] = nil
            }
            object["_meta"] = nil
            if let method {
                found = .success(Request(id: nil, method: method, params: object, paramsByPosition: false))
            } else {
                found = named(object)
            }
        case .message(.array):
            found = .failure(.invalidRequest("a line is one job; a batch (an array) is not"))
        case .message:
            found = .failure(.invalidRequest("a line is a params object or a bare string"))
        }
        return (
            id,
            found.map { request in
                var request = request
                request.id = id
                return request
            }
        )
    }

    /// A bare string as the params of the line's method.
    private func bare(_ text: String) -> Result<Request, RPCError> {
        guard let method else {
            return .failure(.invalidRequest(#"without a method after pipe, a line is {"method", "params"}"#))
        }
        guard let member = bareMembers[method] else {
            return .failure(.invalidParams(at: .root, "\(method) takes a params object, not a bare string"))
        }
        return .success(Request(id: nil, method: method, params: [member: .string(text)], paramsByPosition: false))
    }

    /// A line that names its method: `{"method", "params"?}`, its id already taken out.
    private func named(_ object: JSONObject) -> Result<Request, RPCError> {
        guard let method = object["method"]?.stringValue else {
            return .failure(.invalidRequest(#"the line has no "method" string (or give the method after pipe)"#))
        }
        if let unknown = object.keys.first(where: { $0 != "method" && $0 != "params" }) {
            return .failure(
                .invalidRequest("unknown member \"\(unknown)\": a line is {\"method\", \"params\", \"id\"}"))
        }
        switch object["params"] {
        case nil:
            return .success(Request(id: nil, method: method, params: [:], paramsByPosition: false))
        case .object(var params)?:
            params["_meta"] = nil
            return .success(Request(id: nil, method: method, params: params, paramsByPosition: false))
        case .array?:
            return .success(Request(id: nil, method: method, params: [:], paramsByPosition: true))
        default:
            return .failure(.invalidRequest(#""params" must be an object"#))
        }
    }

    /// Appends the outcome line (with its newline) of the job whose response is `response`, counted in the tally.
    func appendOutcome(_ response: Response, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "{"))
        if let parts = response.id.arrayValue, parts.count > 1 {
            JSONSerializer.appendLiteral(#""id":"#, to: &bytes)
            JSONSerializer.append(parts[1], to: &bytes)
            bytes.append(UInt8(ascii: ","))
        }
        switch response.body {
        case .result(let result):
            tally.record(failure: nil)
            JSONSerializer.appendLiteral(#""result":"#, to: &bytes)
            result.append(to: &bytes)
        case .error(let error):
            let reason = Self.reason(of: error)
            tally.record(failure: reason)
            var object: JSONObject = [
                "code": .integer(error.code.rawValue), "message": .string(error.message), "reason": .string(reason),
            ]
            if let data = error.data { object["data"] = data }
            JSONSerializer.appendLiteral(#""error":"#, to: &bytes)
            JSONSerializer.append(.object(object), to: &bytes)
        }
        JSONSerializer.appendLiteral("}\n", to: &bytes)
    }

    /// One word for why a job failed: the worker's `data.reason`, or the name of a JSON-RPC code (whose `data`,
    /// when there is one, says other things: a parse error's `data.reason` is Jansson's text).
    static func reason(of error: RPCError) -> String {
        switch error.code {
        case .parseError: return "parse_error"
        case .invalidRequest: return "invalid_request"
        case .methodNotFound: return "method_not_found"
        case .invalidParams: return "invalid_params"
        case .internalError: return "internal_error"
        case .requestCancelled: return "cancelled"
        default: return error.data?["reason"]?.stringValue ?? "error"
        }
    }
}

/// What a filter's lines came to: how many succeeded, and the failures by reason.
package final class JobTally: Sendable {
    private let succeededCount = Atomic<Int>(0)
    private let failures = NIOLockedValueBox<[String: Int]>([:])

    /// Lines whose job succeeded.
    package var succeeded: Int { succeededCount.load(ordering: .relaxed) }

    /// Lines whose job failed, by reason.
    package var failed: [String: Int] { failures.withLockedValue { $0 } }

    func record(failure reason: String?) {
        guard let reason else {
            succeededCount.add(1, ordering: .relaxed)
            return
        }
        failures.withLockedValue { $0[reason, default: 0] += 1 }
    }
}
