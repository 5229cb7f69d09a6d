import Foundation
import JSONCore
import JSONRPC
import TestSupport
import Testing

/// The filter face's rules (``JobLines``): one outcome line for every input line, in input order, the result and the
/// error under their own keys, the input's `id` echoed.
@Suite("Job lines")
struct JobLinesTests {
    /// Serves `lines` as job lines for `method` (nil: each line names its own) in memory; the outcomes and the tally.
    private func outcomes(_ lines: [String], method: String?, maxLineBytes: Int = 256) async -> ([JSONValue], JobTally)
    {
        var configuration = ServerConfiguration(ordered: true, maxLineBytes: maxLineBytes)
        let jobs = JobLines(method: method, bareMembers: ["test.echo": "text"])
        configuration.jobs = jobs
        let input = Array(lines.joined(separator: "\n").utf8)
        let frozen = configuration
        let output = await withCheckedContinuation { continuation in
            Thread {
                continuation.resume(
                    returning: RPCServer.answers(
                        to: input, registry: MethodRegistry(TestMethods.all()), configuration: frozen))
            }.start()
        }
        let values = String(decoding: output, as: UTF8.self).split(separator: "\n").map {
            (try? JSONParser.parse(String($0))) ?? .null
        }
        return (values, jobs.tally)
    }

    @Test("every line, blank and broken ones too, gets one outcome in its own place")
    func oneOutcomePerLine() async {
        let lines = [
            #"{"text":"a","id":"first"}"#, "", "bare words", "{bad", "[1]", #""quoted""#, "20240101",
            #"{"ms":"x","_meta":{"progressToken":"p"}}"#, String(repeating: "x", count: 300), "  padded  ",
        ]
        let (outcomes, tally) = await outcomes(lines, method: "test.echo")
        #expect(outcomes.count == 10)
        #expect(outcomes[0] == ["id": "first", "result": ["text": "a"]])
        #expect(outcomes[1][at: "/error/reason"] == "invalid_request")
        #expect(outcomes[2][at: "/result/text"] == "bare words")
        #expect(outcomes[3][at: "/error/reason"] == "parse_error")
        #expect(outcomes[4][at: "/error/reason"] == "invalid_request")
        #expect(outcomes[5][at: "/result/text"] == "quoted")
        // Digits stay the text they were (a movie code), not a number.
        #expect(outcomes[6][at: "/result/text"] == "20240101")
        // No progress: `_meta` never reaches the method, so nothing but outcome lines is written.
        #expect(outcomes[7] == ["result": ["ms": "x"]])
        #expect(outcomes[8][at: "/error/code"] == -32600)
        #expect(outcomes[9][at: "/result/text"] == "padded")
        #expect(tally.succeeded == 6)
        #expect(tally.failed == ["invalid_request": 3, "parse_error": 1])
    }

    @Test("the order holds while slow jobs run beside fast ones")
    func inputOrder() async {
        let lines = (1...200).map { index in
            index % 3 == 0
                ? #"{"method":"test.sleep","params":{"ms":\#(index % 7)},"id":\#(index)}"#
                : #"{"method":"test.echo","params":{"n":\#(index)},"id":\#(index)}"#
        }
        let (outcomes, tally) = await outcomes(lines, method: nil)
        #expect(outcomes.map { $0[at: "/id"]?.integerValue } == Array(1...200))
        #expect(tally.succeeded == 200)
    }

    @Test("without a method a line names its own; an error's reason is on the error")
    func namedMethods() async {
        let lines = [
            #"{"method":"test.reject"}"#, #"{"method":"nope"}"#, "bare", #"{"params":{}}"#,
            #"{"method":"test.echo","params":[1]}"#, #"{"method":"test.echo","extra":1}"#,
            #"{"method":"$/cancelRequest","params":{"id":[1]}}"#, #"{"method":"test.crash"}"#,
        ]
        let (outcomes, tally) = await outcomes(lines, method: nil)
        #expect(outcomes.count == 8)
        #expect(outcomes[0][at: "/error/reason"] == "not_found")
        #expect(outcomes[0][at: "/error/data/reason"] == "not_found")
        #expect(outcomes[1][at: "/error/reason"] == "method_not_found")
        #expect(outcomes[2][at: "/error/reason"] == "invalid_request")
        #expect(outcomes[3][at: "/error/reason"] == "invalid_request")
        #expect(outcomes[4][at: "/error/reason"] == "invalid_params")
        #expect(outcomes[5][at: "/error/reason"] == "invalid_request")
        // Cancellation is not a job: no line can cancel another's.
        #expect(outcomes[6][at: "/error/reason"] == "method_not_found")
        #expect(outcomes[7][at: "/error/reason"] == "internal_error")
        #expect(tally.succeeded == 0)
    }

    @Test("a method without a bare member refuses a bare string")
    func bareRefused() async {
        let (outcomes, _) = await outcomes(["30"], method: "test.sleep")
        #expect(outcomes[0][at: "/error/reason"] == "invalid_params")
        #expect(outcomes[0][at: "/error/message"]?.stringValue?.contains("not a bare string") == true)
    }
}
