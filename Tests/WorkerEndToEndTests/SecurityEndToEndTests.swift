import BoxOfficeCore
import BoxOfficeMethods
import BoxOfficeWorker
import Foundation
import JSONCore
import ProcessTestSupport
import TestSupport
import Testing

/// The security promises against the built worker and fake servers on 127.0.0.1 (never anything else): no key in
/// any output or file, a deadline on every body, downloads to public addresses only, no key after a redirect to
/// another origin, no undecodable body kept, images told by their bytes, base URL credentials never shown.
@Suite("Security against fake upstreams on loopback", .spawnsWorkers)
struct SecurityEndToEndTests {
    static let arguments = ["--ordered", "--today", "2026-11-21", "--timeout", "5"]

    /// Every byte the worker wrote (stdout, stderr) and every file under `cache`.
    static func everything(_ run: WorkerRun, cache: String?) -> String {
        var text = run.lines.joined(separator: "\n") + run.stderr
        if let cache, let files = FileManager.default.enumerator(atPath: cache) {
            for case let name as String in files {
                if let data = FileManager.default.contents(atPath: cache + "/" + name) {
                    text += String(decoding: data, as: UTF8.self)
                }
            }
        }
        return text
    }

    @Test("a key echoed by KOBIS or by Kakao reaches no answer, log, MCP content or file")
    func echoedKeys() async throws {
        let upstream = try RecordedUpstream()
        let cache = WorkerProcess.freshCacheDirectory()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let environment = upstream.environment(cache: cache)
        let rpc = try await WorkerProcess.run(
            [
                request(1, "movie.detail", params: ["movieCode": .string(RecordedUpstream.movieEchoingKey)]),
                request(2, "movie.poster", params: ["title": "키유출"]),
            ], arguments: Self.arguments + ["--log-level", "debug"], environment: environment)
        let out = rpc.json()
        #expect(out[0][at: "/error/data/upstreamCode"] == "320999", "\(out)")
        #expect(out[0][at: "/error/data/upstreamMessage"]?.stringValue?.contains("REDACTED") == true)
        #expect(out[1][at: "/error/code"] != nil)
        let mcp = try await WorkerProcess.run(
            [
                MCPRequests.initialize(1),
                MCPRequests.call(2, "movie_detail", ["movieCode": .string(RecordedUpstream.movieEchoingKey)]),
                MCPRequests.call(3, "movie_poster", ["title": "키유출"]),
            ], arguments: ["mcp"] + Self.arguments.dropFirst(), environment: environment)
        #expect(mcp.json().filter { $0[at: "/result/isError"] == true }.count == 2, "\(mcp.lines)")
        let cli = try await WorkerProcess.run(
            [], arguments: ["movie", RecordedUpstream.movieEchoingKey, "--today", "2026-11-21"],
            environment: environment)
        #expect(cli.status != 0)
        for run in [rpc, mcp, cli] {
            let seen = Self.everything(run, cache: cache)
            #expect(!seen.contains(RecordedUpstream.kobisKey) && !seen.contains(RecordedUpstream.kakaoKey), "\(seen)")
        }
    }

    @Test("a body that stalls ends in an error at the deadline, and other calls are answered meanwhile")
    func stalledBody() async throws {
        let upstream = try RecordedUpstream()
        let worker = try WorkerProcess(
            arguments: ["--today", "2026-11-21", "--deadline", "5"], environment: upstream.environment)
        worker.send(request(1, "boxoffice.daily", params: ["date": "2023-01-13"]))
        #expect(await upstream.server.waitForRequest { $0.query["targetDt"] == "20230113" })
        worker.send(request(2, "movie.detail", params: ["movieCode": "20124079"]))
        #expect(await worker.waitForLine(containing: #""id":2,"#), "a normal call waited behind the stalled one")
        #expect(!worker.lines.contains { $0.contains(#""id":1,"#) }, "the stalled call was answered before it")
        #expect(await worker.waitForLine(containing: #""id":1,"#, timeout: 60), "the stalled call was never answered")
        worker.closeInput()
        #expect(await worker.waitForExit() == 0)
        let stalled = try #require(worker.json().first { $0["id"] == 1 })
        #expect(stalled[at: "/error/data/reason"] == "upstream_unavailable", "\(stalled)")
        #expect(stalled[at: "/error/message"]?.stringValue?.contains("within 5 s") == true, "\(stalled)")
    }

    @Test("an undecodable body once, then a good one: the second request is answered")
    func badBodyNotKept() async throws {
        let upstream = try RecordedUpstream()
        let cache = WorkerProcess.freshCacheDirectory()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let environment = upstream.environment(cache: cache)
        let first = try await WorkerProcess.run(
            [request(1, "boxoffice.daily", params: ["date": "2023-01-12"])], arguments: Self.arguments,
            environment: environment
        ).json()
        #expect(first.first?[at: "/error/data/reason"] == "upstream_malformed", "\(first)")
        // A new worker on the same cache: the bad body was kept nowhere.
        let second = try await WorkerProcess.run(
            [request(1, "boxoffice.daily", params: ["date": "2023-01-12"])], arguments: Self.arguments,
            environment: environment
        ).json()
        #expect(second.first?[at: "/result/entries"]?.arrayValue?.isEmpty == false, "\(second)")
        #expect(upstream.dailyRequests("20230112") == 2)
    }

    @Test("the Kakao key does not follow a redirect to another port")
    func keyStaysOnOrigin() async throws {
        let upstream = try RecordedUpstream()
        let elsewhere = try FakeUpstream { _ in .json("{}") }
        let run = try await WorkerProcess.run(
            [request(1, "movie.poster", params: ["title": .string("딴곳 \(elsewhere.baseURL)/steal")])],
            arguments: Self.arguments, environment: upstream.environment)
        #expect(run.json().first?[at: "/error/code"] != nil, "\(run.lines)")
        #expect(elsewhere.requests.isEmpty, "the other port was asked: \(elsewhere.requests.map(\.headers))")
    }

    @Test(
        "downloads never reach loopback, in any of its forms, directly or through a redirect",
        arguments: ["127.0.0.1", "127.1", "2130706433", "0x7f000001", "[::1]", "localhost"])
    func privateDestinations(_ host: String) async throws {
        let upstream = try RecordedUpstream()
        let listener = try FakeUpstream { _ in
            .respond(status: 200, contentType: "image/jpeg", body: RecordedUpstream.posterBytes)
        }
        let cache = WorkerProcess.freshCacheDirectory()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        var environment = upstream.environment(cache: cache)
        environment["BOXOFFICE_ALLOW_PRIVATE_DOWNLOADS"] = nil
        let direct = "http://\(host):\(listener.port)/poster.jpg"
        let run = try await WorkerProcess.run(
            [request(1, "movie.poster", params: ["title": .string("이미지 \(direct)"), "download": true])],
            arguments: Self.arguments, environment: environment)
        let answer = try #require(run.json().first)
        #expect(answer[at: "/error/message"]?.stringValue?.contains("public addresses only") == true, "\(answer)")
        #expect(listener.requests.isEmpty, "\(host): the listener was connected to")
    }

    @Test("each redirect hop is judged: a hop to a refused address is not followed, and never connected to")
    func redirectHops() async throws {
        let target = try FakeUpstream { _ in
            .respond(status: 200, contentType: "image/jpeg", body: RecordedUpstream.posterBytes)
        }
        let first = try FakeUpstream { _ in .redirect(location: "http://127.0.0.1:\(target.port)/poster.jpg") }
        let transport = AsyncHTTPClientTransport(
            deadline: WorkerConfiguration().deadline, silence: WorkerConfiguration().timeout)
        defer { Task { await transport.shutdown() } }
        // Only the first server's port is allowed here (the hop logic is what is tested; every real hop to
        // loopback is refused by DownloadDestination, as the test above shows).
        let allowed = first.port
        let request = HTTPRequest(
            url: "\(first.baseURL)/moved.jpg", redactedURL: "moved", redirectsToAnyHost: true,
            destinationCheck: {
                URLComponents(string: $0)?.port == allowed ? .allowed(connectTo: nil) : .refused("\($0) is not allowed")
            })
        await #expect(throws: TransportError.self) { try await transport.send(request, timeout: .seconds(5)) }
        #expect(first.requests.count == 1 && target.requests.isEmpty)
    }

    @Test("each download hop connects to the address its check vetted, never to a second lookup of the name")
    func pinnedAddress() async throws {
        // Names under .invalid never resolve (RFC 2606): a download that reaches the server connected to the
        // address the check gave, as a DNS rebinding cannot change it; the Host header still names the host.
        let target = try FakeUpstream { _ in
            .respond(status: 200, contentType: "image/jpeg", body: RecordedUpstream.posterBytes)
        }
        let first = try FakeUpstream { _ in .redirect(location: "http://second.invalid:\(target.port)/poster.jpg") }
        let transport = AsyncHTTPClientTransport(
            deadline: WorkerConfiguration().deadline, silence: WorkerConfiguration().timeout)
        let request = HTTPRequest(
            url: "http://first.invalid:\(first.port)/moved.jpg", redactedURL: "moved", redirectsToAnyHost: true,
            destinationCheck: { _ in .allowed(connectTo: "127.0.0.1") })
        let response = try await transport.send(request, timeout: .seconds(5))
        #expect(response.status == 200 && response.body == RecordedUpstream.posterBytes)
        #expect(first.requests.first?.headers["host"] == "first.invalid:\(first.port)")
        #expect(target.requests.first?.headers["host"] == "second.invalid:\(target.port)")
        // Without a vetted address the name is looked up, and does not resolve.
        let unpinned = HTTPRequest(
            url: "http://first.invalid:\(first.port)/moved.jpg", redactedURL: "moved", redirectsToAnyHost: true,
            destinationCheck: { _ in .allowed(connectTo: nil) })
        await #expect(throws: TransportError.self) { try await transport.send(unpinned, timeout: .seconds(5)) }
        #expect(first.requests.count == 1)
        await transport.shutdown()
    }

    @Test("a poster's type is what its bytes are: HTML or SVG sent as an image is refused, a long type never echoed")
    func sniffedImages() async throws {
        let upstream = try RecordedUpstream()
        let cache = WorkerProcess.freshCacheDirectory()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let environment = upstream.environment(cache: cache)
        let out = try await WorkerProcess.run(
            ["disguised.jpg", "script.svg", "long-type.gif", "poster.jpg"].enumerated().map {
                request(
                    .int($0.offset), "movie.poster", params: ["title": .string("다운로드 \($0.element)"), "download": true])
            }, arguments: Self.arguments, environment: environment
        ).json()
        #expect(
            out[0][at: "/error/data/reason"] == "upstream_malformed"
                && out[1][at: "/error/data/reason"] == "upstream_malformed")
        #expect(out[2][at: "/result/file/mimeType"] == "image/gif", "\(out[2])")
        #expect(out[3][at: "/result/file/mimeType"] == "image/jpeg")
        let files = (try? FileManager.default.subpathsOfDirectory(atPath: cache + "/posters")) ?? []
        #expect(!files.contains { $0.hasSuffix(".svg") || $0.hasSuffix(".html") }, "\(files)")
    }

    @Test("credentials in a base URL are sent but never shown, and its query joins every request's")
    func baseURLCredentials() async throws {
        let upstream = try RecordedUpstream()
        var environment = upstream.environment
        let port = upstream.server.port
        environment["KOBIS_BASE_URL"] = "http://someone:pa55word-x@127.0.0.1:\(port)/kobis?token=t0ken-x"
        let run = try await WorkerProcess.run(
            [
                request(1, "worker.status"), request(2, "movie.detail", params: ["movieCode": "00000001"]),
                request(3, "movie.detail", params: ["movieCode": "20124079"]),
            ], arguments: Self.arguments, environment: environment)
        let out = run.json()
        #expect(out[0][at: "/result/upstream/kobis/baseURL"] == .string("http://127.0.0.1:\(port)/kobis"))
        #expect(out[2][at: "/result/title"] != nil, "\(out[2])")
        let seen = Self.everything(run, cache: nil)
        #expect(!seen.contains("pa55word-x") && !seen.contains("t0ken-x"), "\(seen)")
        let movie = try #require(upstream.server.requests.first { $0.query["movieCd"] == "20124079" })
        #expect(movie.query["token"] == "t0ken-x" && movie.query["key"] == RecordedUpstream.kobisKey)
        #expect(movie.headers["authorization"] == "Basic " + Data("someone:pa55word-x".utf8).base64EncodedString())
    }

    @Test("Retry-After is waited for up to 5 s; a longer one fails the call at once, saying how long")
    func retryAfter() async throws {
        let upstream = try RecordedUpstream()
        let out = try await WorkerProcess.run(
            [
                request(1, "boxoffice.daily", params: ["date": "2023-01-14"]),
                request(2, "boxoffice.daily", params: ["date": "2023-01-15"]),
            ], arguments: Self.arguments, environment: upstream.environment
        ).json()
        #expect(out[0][at: "/result/entries"]?.arrayValue?.isEmpty == false, "\(out[0])")
        let asked = upstream.server.requests.filter { $0.query["targetDt"] == "20230114" }
        #expect(asked.count == 2)
        if asked.count == 2 {
            #expect(asked[1].received - asked[0].received >= .seconds(1), "the retry did not wait as asked")
        }
        #expect(out[1][at: "/error/data/retryAfter"] == 3600, "\(out[1])")
        #expect(out[1][at: "/error/message"]?.stringValue?.contains("3600 s") == true)
        #expect(upstream.dailyRequests("20230115") == 1, "an hour's wait is not retried")
    }

    @Test("a cache directory others can write to, or another user's, is refused with the fix named, unless allowed")
    func sharedCacheDirectory() async throws {
        let directory = try TemporaryDirectory("boxoffice-shared-cache")
        defer { directory.remove() }
        chmod(directory.path, 0o777)
        let refused = try await WorkerProcess.run(
            [request(1, "worker.status")], arguments: Self.arguments,
            environment: ["KOBIS_API_KEY": "k-shared-test", "BOXOFFICE_CACHE_DIR": directory.path])
        #expect(refused.json().first?[at: "/result/cache/enabled"] == false)
        #expect(refused.stderr.contains("can be written by other users") && refused.stderr.contains("chmod 700"))
        let allowed = try await WorkerProcess.run(
            [request(1, "worker.status")], arguments: Self.arguments + ["--allow-shared-cache-dir"],
            environment: ["KOBIS_API_KEY": "k-shared-test", "BOXOFFICE_CACHE_DIR": directory.path])
        #expect(allowed.json().first?[at: "/result/cache/enabled"] == true, "\(allowed.stderr)")
        if geteuid() == 0 {
            chmod(directory.path, 0o700)
            chown(directory.path, 65534, 65534)
            let foreign = try await WorkerProcess.run(
                [request(1, "worker.status")], arguments: Self.arguments,
                environment: ["KOBIS_API_KEY": "k-shared-test", "BOXOFFICE_CACHE_DIR": directory.path])
            #expect(foreign.stderr.contains("belongs to another user"), "\(foreign.stderr)")
        }
    }

    /// Mounts a tmpfs of `kilobytes` at `path`; whether it could (root, and a kernel that lets this sandbox).
    static func mountSmallDisk(_ path: String, kilobytes: Int) -> Bool {
        let mount = Process()
        mount.executableURL = URL(fileURLWithPath: "/bin/mount")
        mount.arguments = ["-t", "tmpfs", "-o", "size=\(kilobytes)k,mode=0700", "tmpfs", path]
        mount.standardError = FileHandle.nullDevice
        guard (try? mount.run()) != nil else { return false }
        mount.waitUntilExit()
        return mount.terminationStatus == 0
    }

    @Test(
        "a full disk under the cache directory is storage_full (-31008), not a setting, and no partial file stays",
        .enabled(if: geteuid() == 0, "needs root to mount a small tmpfs"))
    func fullDisk() async throws {
        let directory = try TemporaryDirectory("boxoffice-full-disk")
        defer { directory.remove() }
        guard Self.mountSmallDisk(directory.path, kilobytes: 512) else {
            Issue.record("a 512 KiB tmpfs cannot be mounted here, although the test runs as root")
            return
        }
        defer { _ = umount(directory.path) }
        let upstream = try RecordedUpstream()
        let environment = upstream.environment(cache: directory.path)
        let worker = try WorkerProcess(arguments: Self.arguments, environment: environment)
        worker.send(request(1, "worker.status"))
        #expect(await worker.waitForLines(1).count == 1)
        // Fill what is left.
        let filler = directory.path + "/filler"
        let descriptor = open(filler, O_WRONLY | O_CREAT, 0o600)
        let block = [UInt8](repeating: 0x5A, count: 4096)
        while block.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) > 0 {}
        close(descriptor)
        worker.send(request(2, "movie.poster", params: ["title": "다운로드 poster.jpg", "download": true]))
        #expect(await worker.waitForLine(containing: #""id":2,"#))
        worker.closeInput()
        _ = await worker.waitForExit()
        let answer = try #require(worker.json().first { $0["id"] == 2 })
        #expect(answer[at: "/error/code"] == -31008 && answer[at: "/error/data/reason"] == "storage_full", "\(answer)")
        #expect(answer[at: "/error/data/directory"] == .string(directory.path))
        let posters = (try? FileManager.default.contentsOfDirectory(atPath: directory.path + "/posters")) ?? []
        #expect(posters.isEmpty, "a partial file stayed: \(posters)")
    }
}
