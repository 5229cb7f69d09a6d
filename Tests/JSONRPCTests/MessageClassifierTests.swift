import JSONCore
import JSONRPC
import TestSupport
import Testing

@Suite("MessageClassifier: JSON-RPC 2.0 shape rules")
struct MessageClassifierTests {
    func classify(_ text: String, maxBatch: Int = ServerConfiguration().maxBatch) -> IncomingMessage {
        MessageClassifier.classify(JSONValue(json: text), maxBatch: maxBatch)
    }

    func invalidID(_ text: String) -> JSONValue? {
        if case .single(.invalid(let id, let error)) = classify(text), error.code == .invalidRequest { return id }
        return nil
    }

    @Test("a request, a notification, an id of null")
    func requests() {
        #expect(
            classify(#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#)
                == .single(.request(Request(id: 1, method: "ping", params: [:], paramsByPosition: false))))
        #expect(
            classify(#"{"jsonrpc":"2.0","method":"ping","params":{"a":1}}"#)
                == .single(.request(Request(id: nil, method: "ping", params: ["a": 1], paramsByPosition: false))))
        #expect(
            classify(#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#)
                == .single(.request(Request(id: .null, method: "ping", params: [:], paramsByPosition: false))))
    }

    @Test("ids keep their JSON type", arguments: [#"7"#, #"1.5"#, #""x""#, #""한글""#, "-0", "1e2"])
    func idTypes(id: String) {
        guard case .single(.request(let request)) = classify(#"{"jsonrpc":"2.0","id":\#(id),"method":"ping"}"#) else {
            Issue.record("not a request")
            return
        }
        #expect(request.id == JSONValue(json: id))
    }

    @Test("invalid requests echo a readable id, else null")
    func invalid() {
        #expect(invalidID(#"{"jsonrpc":"2.0","method":1}"#) == .null)
        #expect(invalidID(#"{"jsonrpc":"1.0","id":3,"method":"ping"}"#) == 3)
        #expect(invalidID(#"{"id":"a","method":"ping"}"#) == "a")
        #expect(invalidID(#"{"jsonrpc":"2.0","id":4}"#) == 4)
        #expect(invalidID(#"{"jsonrpc":"2.0","id":[1],"method":"ping"}"#) == .null)
        #expect(invalidID(#"{"jsonrpc":"2.0","id":{},"method":"ping"}"#) == .null)
        #expect(invalidID(#"{"jsonrpc":"2.0","id":true,"method":"ping"}"#) == .null)
        #expect(invalidID(#"{"jsonrpc":"2.0","id":5,"method":"ping","params":3}"#) == 5)
        #expect(invalidID(#"{"jsonrpc":"2.0","id":5,"method":"ping","params":null}"#) == 5)
        #expect(invalidID("1") == .null)
        #expect(invalidID("null") == .null)
        #expect(invalidID(#""x""#) == .null)
    }

    @Test("params by position are flagged for -32602, not -32600")
    func byPosition() {
        guard case .single(.request(let request)) = classify(#"{"jsonrpc":"2.0","id":1,"method":"ping","params":[1]}"#)
        else {
            Issue.record("not a request")
            return
        }
        #expect(request.paramsByPosition)
    }

    @Test("batches: empty, too large, elements classified one by one")
    func batches() {
        #expect(classify("[]") == .rejected(RPCError(.invalidRequest, "Invalid Request: an empty batch")))
        if case .rejected(let error) = classify("[1,2,3]", maxBatch: 2) {
            #expect(error.code == .invalidRequest)
            #expect(error.message.hasPrefix("batch too large"))
        } else {
            Issue.record("an over-large batch was not rejected")
        }
        guard case .batch(let elements) = classify(#"[1,{"jsonrpc":"2.0","method":"ping"}]"#) else {
            Issue.record("not a batch")
            return
        }
        #expect(elements.count == 2)
        if case .invalid(let id, _) = elements[0] { #expect(id == .null) } else { Issue.record("1 is not a request") }
        if case .request(let request) = elements[1] {
            #expect(request.isNotification)
        } else {
            Issue.record("not a notification")
        }
    }
}
