import Foundation
import NIOCore
import TestSupport
import Testing

@testable import BoxOfficeCore

/// The lean client the API calls over plain http go through (``PlainHTTPClient``), through the transport as the
/// fetchers use it, against a loopback server that answers as it is told: kept-alive connections, the answer's
/// forms, and every way an exchange ends with the same error AsyncHTTPClient gave.
@Suite("Plain HTTP client")
struct PlainHTTPClientTests {
    private func transport(silence: Duration = .seconds(5), deadline: Duration = .seconds(10))
        -> AsyncHTTPClientTransport
    {
        AsyncHTTPClientTransport(maximumBodyBytes: 1 << 20, deadline: deadline, silence: silence)
    }

    private func get(
        _ transport: AsyncHTTPClientTransport, _ url: String, timeout: Duration = .seconds(5), maximumBytes: Int? = nil
    ) async throws(TransportError) -> HTTPResponse {
        try await transport.send(
            HTTPRequest(
                url: url, redactedURL: url, headers: [("Authorization", "KakaoAK k")], maximumBytes: maximumBytes),
            timeout: timeout)
    }

    private func failure(_ body: () async throws(TransportError) -> HTTPResponse) async -> TransportError? {
        do {
            _ = try await body()
            return nil
        } catch {
            return error
        }
    }

    @Test("PlainHTTPTarget reads the worker's URLs and leaves every other form to AsyncHTTPClient")
    func targets() {
        let kobis = PlainHTTPTarget("http://www.kobis.or.kr/kobisopenapi/webservice/rest/a.json?b=1&key=x")
        #expect(kobis?.host == "www.kobis.or.kr" && kobis?.port == 80 && kobis?.hostHeader == "www.kobis.or.kr")
        #expect(kobis?.requestTarget == "/kobisopenapi/webservice/rest/a.json?b=1&key=x")
        let local = PlainHTTPTarget("HTTP://127.0.0.1:8080?x=1")
        #expect(local?.host == "127.0.0.1" && local?.port == 8080 && local?.hostHeader == "127.0.0.1:8080")
        #expect(local?.requestTarget == "/?x=1")
        let escaped = PlainHTTPTarget("http://h/a%2Fb?q=%EC%9D%BC&x=(1)*;@:")
        #expect(escaped?.requestTarget == "/a%2Fb?q=%EC%9D%BC&x=(1)*;@:")
        let six = PlainHTTPTarget("http://[::1]:9/p")
        #expect(six?.host == "::1" && six?.port == 9 && six?.hostHeader == "[::1]:9" && six?.requestTarget == "/p")
        for refused in [
            "https://dapi.kakao.com/v2/search/image", "http://user:pass@host/p", "http://host/p#f", "http://host/a b",
            "http://host/é", "http://host:0/", "http://host:65536/", "http://host:/", "http:///p", "http://ho_st/",
            "http://host/a\r\nX: y", "ftp://host/", "http://[::1/p",
            "http://host/a\"b", "http://host/{x}", "http://host/a|b", "http://host/a^b", "http://host/[x]",
            "http://host/a%2", "http://host/a%zz", "http:\u{0F}/host/p", "http:/\u{0F}host/p",
        ] {
            #expect(PlainHTTPTarget(refused) == nil, "\(refused)")
        }
        // Every byte in a path: only RFC 3986's unreserved and sub-delimiters, `:@/?` and whole escapes stand.
        let standing = Set("-._~!$&'()*+,;=:@/?".utf8)
        for byte in UInt8(0)...UInt8(255) {
            let url = String(decoding: Array("http://h/a".utf8) + [byte], as: UTF8.self)
            let expected =
                byte < 0x80
                && (Character(Unicode.Scalar(byte)).isLetter || Character(Unicode.Scalar(byte)).isNumber
                    || standing.contains(byte))
            #expect((PlainHTTPTarget(url) != nil) == expected, "byte \(byte)")
        }
    }

    @Test("sequential calls share one kept-alive connection; the request carries Host, the target and the headers")
    func keepAlive() async throws {
        let server = ScriptedHTTPServer { number in .ok(#"{"n":\#(number)}"#) }
        defer { server.stop() }
        let transport = transport()
        for number in 0..<5 {
            let response = try await get(transport, server.url + "/api/x.json?a=1&key=k")
            #expect(response.status == 200 && String(decoding: response.body, as: UTF8.self) == #"{"n":\#(number)}"#)
        }
        #expect(server.accepted == 1)
        let head = try #require(server.requests.first)
        #expect(head.hasPrefix("GET /api/x.json?a=1&key=k HTTP/1.1\r\n"))
        #expect(head.contains("Host: 127.0.0.1:\(server.port)\r\n") && head.contains("Authorization: KakaoAK k"))
        // A GET without a body says nothing of one: no chunked framing a server could wait on.
        #expect(!head.lowercased().contains("transfer-encoding") && !head.lowercased().contains("content-length"))
        await transport.shutdown()
    }

    @Test("an answer that closes its connection, or a connection the server closed while idle, is not used again")
    func closedConnections() async throws {
        let server = ScriptedHTTPServer { number in
            number == 0 ? .ok("first", headers: "Connection: close\r\n") : .ok("next", headers: "")
        }
        defer { server.stop() }
        let transport = transport()
        #expect(String(decoding: try await get(transport, server.url + "/a").body, as: UTF8.self) == "first")
        #expect(String(decoding: try await get(transport, server.url + "/b").body, as: UTF8.self) == "next")
        #expect(server.accepted == 2)
        await transport.shutdown()
    }

    @Test("a chunked body and a body read to the connection's end are whole")
    func bodyForms() async throws {
        let server = ScriptedHTTPServer { number in
            number == 0
                ? .init(
                    bytes: Array(
                        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n".utf8))
                : .init(bytes: Array("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nto the end".utf8), close: true)
        }
        defer { server.stop() }
        let transport = transport()
        #expect(String(decoding: try await get(transport, server.url + "/c").body, as: UTF8.self) == "abcde")
        #expect(String(decoding: try await get(transport, server.url + "/e").body, as: UTF8.self) == "to the end")
        await transport.shutdown()
    }

    @Test("a body over the cap fails as too large, whether its length says so or it only grows past it")
    func cap() async throws {
        let big = String(repeating: "x", count: 100)
        let server = ScriptedHTTPServer { number in
            number == 0
                ? .ok(big)
                : .init(bytes: Array("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n\(big)".utf8), close: true)
        }
        defer { server.stop() }
        let transport = transport()
        let said = await failure { () async throws(TransportError) in
            try await get(transport, server.url + "/l", maximumBytes: 50)
        }
        let grown = await failure { () async throws(TransportError) in
            try await get(transport, server.url + "/g", maximumBytes: 50)
        }
        #expect(said?.kind == .tooLarge, "\(String(describing: said))")
        #expect(grown?.kind == .tooLarge, "\(String(describing: grown))")
        await transport.shutdown()
    }

    @Test("a connection closed before the answer's end is a reset; a malformed answer is an error, not a hang")
    func brokenAnswers() async throws {
        let server = ScriptedHTTPServer { number in
            number == 0
                ? .init(bytes: Array("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc".utf8), close: true)
                : .init(bytes: Array("HTTP/1.1 2x0 Nope\r\n\r\n".utf8), close: false)
        }
        defer { server.stop() }
        let transport = transport()
        let reset = await failure { () async throws(TransportError) in try await get(transport, server.url + "/r") }
        let malformed = await failure { () async throws(TransportError) in try await get(transport, server.url + "/m") }
        #expect(reset?.kind == .reset)
        #expect(malformed != nil && malformed?.kind != .timeout)
        await transport.shutdown()
    }

    @Test("no head by --timeout is a timeout once connected; silence after the head ends the attempt too")
    func silence() async throws {
        let server = ScriptedHTTPServer { number in
            number == 0
                ? .init(bytes: [], stall: true)
                : .init(bytes: Array("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc".utf8), stall: true)
        }
        defer { server.stop() }
        let transport = transport(silence: .milliseconds(300))
        let noHead = await failure { () async throws(TransportError) in
            try await get(transport, server.url + "/s", timeout: .milliseconds(300))
        }
        let stalled = await failure { () async throws(TransportError) in
            try await get(transport, server.url + "/t", timeout: .seconds(5))
        }
        #expect(noHead?.kind == .timeout && noHead?.message.contains("no answer in time") == true)
        #expect(stalled?.kind == .timeout && stalled?.message.contains("sent nothing for 0.3 s") == true)
        await transport.shutdown()
    }

    @Test("a refused port is tried until --timeout, then fails as no connection made")
    func refused() async throws {
        // Bound and never listening, and held for the whole test: a port a server of a test running beside this one
        // cannot be given (a stopped server's port was, and took this test's connections).
        let (closed, port) = try #require(LoopbackSocket.make(listening: nil))
        defer { close(closed) }
        let url = "http://127.0.0.1:\(port)/x"
        let transport = transport()
        let started = ContinuousClock.now
        let error = await failure { () async throws(TransportError) in
            try await get(transport, url, timeout: .milliseconds(400))
        }
        #expect(error?.kind == .connect && error?.message.contains("cannot connect") == true)
        #expect(ContinuousClock.now - started >= .milliseconds(350), "given up before --timeout")
        await transport.shutdown()
    }

    @Test("a port still refused when connecting gives up before the head is due fails as a connection, not a timeout")
    func refusedUntilTheConnectTimeout() async throws {
        let (closed, port) = try #require(LoopbackSocket.make(listening: nil))
        defer { close(closed) }
        let client = PlainHTTPClient(
            loop: EventLoopExecutor.shared.loop, silence: .seconds(5), connectTimeout: .milliseconds(300))
        let target = try #require(PlainHTTPTarget("http://127.0.0.1:\(port)/x"))
        let started = ContinuousClock.now
        // The head's timer far off, so only the connect limit can end the exchange, however late a loaded loop
        // runs its tasks (the message tells the two ends apart; a bound on the time would not hold under a
        // sanitizer).
        let (answer, _) = client.execute(
            target, headers: [], cap: 1 << 20, headBy: .now() + .seconds(600), ends: .now() + .seconds(900))
        do {
            _ = try await answer.get()
            Issue.record("a refused port answered")
        } catch {
            let mapped = AsyncHTTPClientTransport.map(error, "the URL", silence: .seconds(5))
            #expect(mapped.kind == .connect && mapped.message == "cannot connect to the URL", "\(mapped)")
        }
        let took = ContinuousClock.now - started
        #expect(took >= .milliseconds(250), "gave up after \(took), before the connect limit")
        client.shutdown()
    }

    @Test("request headers go the lean way only with token names and visible values")
    func headers() {
        #expect(AsyncHTTPClientTransport.plainHeaders([("Authorization", "KakaoAK k e\ty"), ("X-A_b.c~1", "")]))
        for name in ["", "A B", "A:B", "A(B)", "A,B", "A/B", "A\"B", "한"] {
            #expect(!AsyncHTTPClientTransport.plainHeaders([(name, "v")]), "\(name)")
        }
        for value in ["a\r\nX: y", "a\u{0}", "é", "a\u{7F}"] {
            #expect(!AsyncHTTPClientTransport.plainHeaders([("A", value)]), "\(value)")
        }
    }

    @Test("the call's deadline ends an exchange whose body never ends; cancelling the task ends it at once")
    func deadlineAndCancel() async throws {
        let server = ScriptedHTTPServer { _ in
            .init(bytes: Array("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc".utf8), stall: true)
        }
        defer { server.stop() }
        let transport = transport(silence: .seconds(5), deadline: .milliseconds(400))
        let late = await failure { () async throws(TransportError) in try await get(transport, server.url + "/d") }
        #expect(late?.kind == .deadline)
        let long = self.transport(silence: .seconds(30), deadline: .seconds(30))
        let call = Task { () async -> TransportError? in
            await failure { () async throws(TransportError) in try await get(long, server.url + "/c") }
        }
        #expect(await eventually { server.requests.count == 2 })
        call.cancel()
        let cancelled = await call.value
        // Ended by the cancellation (a reset saying so), not by the 30 s deadline or silence, however slow the loop.
        #expect(
            cancelled?.kind == .reset && cancelled?.message.contains("cancelled") == true,
            "\(String(describing: cancelled))")
        await transport.shutdown()
        await long.shutdown()
    }
}
