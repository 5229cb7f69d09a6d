import JSONRPC
import Testing

@Suite("LineFramer: newline framing with limits")
struct LineFramerTests {
    enum Framed: Equatable {
        case line(String)
        case tooLong
    }

    /// Feeds `chunks` one after another, then ends the input.
    func frame(_ chunks: [String], max: Int = 16) -> [Framed] {
        var framer = LineFramer(maxLineBytes: max)
        var out: [Framed] = []
        let collect: (LineFramer.Event) -> Void = { event in
            switch event {
            case .line(let bytes): out.append(.line(String(decoding: bytes, as: UTF8.self)))
            case .tooLong: out.append(.tooLong)
            }
        }
        for chunk in chunks {
            Array(chunk.utf8).withUnsafeBytes { framer.feed($0, collect) }
        }
        framer.finish(collect)
        return out
    }

    @Test("lines split at \\n, across chunk boundaries")
    func splits() {
        #expect(frame(["a\nb", "c\n", "d"]) == [.line("a"), .line("bc"), .line("d")])
    }

    @Test("one trailing \\r is stripped (CRLF)")
    func crlf() {
        #expect(frame(["a\r\nb\r", "\n"]) == [.line("a"), .line("b")])
        #expect(frame(["a\r\r\n"]) == [.line("a\r")])
    }

    @Test("blank lines are framed (and then ignored by the server)")
    func blank() {
        #expect(frame(["\n\n"]) == [.line(""), .line("")])
    }

    @Test("a line over the limit is reported once and its rest discarded, within one chunk")
    func tooLongInChunk() {
        #expect(frame([String(repeating: "x", count: 20) + "\nok\n"]) == [.tooLong, .line("ok")])
    }

    @Test("a line over the limit is reported as soon as it is known, and its rest discarded across chunks")
    func tooLongAcrossChunks() {
        let chunks = [
            String(repeating: "x", count: 10), String(repeating: "y", count: 10), String(repeating: "z", count: 100),
            "\nok\n",
        ]
        #expect(frame(chunks) == [.tooLong, .line("ok")])
    }

    @Test("exactly the limit passes; a trailing \\r does not count")
    func limitEdges() {
        let sixteen = String(repeating: "x", count: 16)
        #expect(frame([sixteen + "\n"]) == [.line(sixteen)])
        #expect(frame([sixteen, "\r\n"]) == [.line(sixteen)])
        #expect(frame([sixteen + "x\n"]) == [.tooLong])
    }

    @Test("an over-long last line without newline is dropped at end of input")
    func tooLongAtEnd() {
        #expect(frame([String(repeating: "x", count: 40)]) == [.tooLong])
    }

    @Test("white space only counts as blank")
    func isBlank() {
        for (text, blank) in [("", true), (" \t ", true), (" x ", false), ("{}", false)] {
            Array(text.utf8).withUnsafeBytes { #expect(LineFramer.isBlank($0) == blank) }
        }
    }
}
