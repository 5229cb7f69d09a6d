import JSONCore
import TestSupport
import Testing

@Suite("JSONPointer (RFC 6901)")
struct JSONPointerTests {
    let document = JSONValue(json: #"{"foo":["bar","baz"],"":0,"a/b":1,"m~n":8,"entries":[{"title":"경관의 피"}]}"#)

    @Test(
        "the RFC's examples resolve",
        arguments: [
            ("", nil as JSONValue?), ("/foo/0", "bar"), ("/", 0), ("/a~1b", 1), ("/m~0n", 8),
            ("/entries/0/title", "경관의 피"),
        ])
    func resolves(pointer: String, expected: JSONValue?) throws {
        let resolved = try #require(JSONPointer(pointer)).resolve(in: document)
        if let expected {
            #expect(resolved == expected)
        } else {
            #expect(resolved == document)
        }
    }

    @Test(
        "missing members, bad indexes and leading zeros resolve to nil",
        arguments: ["/nope", "/foo/2", "/foo/01", "/foo/-1", "/foo/0/x"])
    func missing(pointer: String) throws {
        #expect(try #require(JSONPointer(pointer)).resolve(in: document) == nil)
    }

    @Test("escaping round-trips")
    func escaping() throws {
        let pointer = JSONPointer.root.appending("a/b").appending("m~n").appending(3)
        #expect(pointer.description == "/a~1b/m~0n/3")
        #expect(JSONPointer(pointer.description) == pointer)
    }

    @Test("malformed pointers are rejected", arguments: ["foo", "/~2", "/a~"])
    func malformed(text: String) {
        #expect(JSONPointer(text) == nil)
    }
}
