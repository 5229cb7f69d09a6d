import Foundation
import JSONCore
import TestSupport
import Testing

@testable import BoxOfficeCore

/// The pure parts of the security promises: redaction, download destinations, image sniffing, redirect origins,
/// base URLs with credentials, and which bodies may be kept. No test here opens a connection.
@Suite("Security: redaction, destinations, sniffing, origins")
struct SecurityUnitTests {
    static let kobisKey = "0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d"
    static let kakaoKey = "kakao+key/with=odd&chars"

    @Test("the keys are taken out as they are and percent-encoded, and any KakaoAK credential")
    func redaction() {
        let redactor = Redactor([Self.kobisKey, Self.kakaoKey, "", "ab"])
        let encoded = Self.kakaoKey.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let text = "bad key=\(Self.kobisKey) and \(encoded); header KakaoAK someone-elses-key, ok"
        let clean = redactor.redact(text)
        #expect(!clean.contains(Self.kobisKey) && !clean.contains(encoded) && !clean.contains("someone-elses-key"))
        #expect(clean == "bad key=REDACTED and REDACTED; header KakaoAK REDACTED, ok")
        #expect(redactor.redact("no secret here, ab") == "no secret here, ab", "short secrets are ignored")
        let body = Array(#"{"faultInfo":{"message":"parameterValue=\#(Self.kobisKey)"}}"#.utf8)
        #expect(!String(decoding: redactor.redact(body), as: UTF8.self).contains(Self.kobisKey))
        let plain = Array("{\"boxOfficeResult\":{}}".utf8)
        #expect(redactor.redact(plain) == plain)
    }

    @Test("a key echoed with JSON escapes, and a mirror's Basic credential, are taken out once decoded")
    func redactionAfterDecoding() throws {
        let endpoint = LiveFetcher.Endpoint(
            baseURL: "http://user:s3cret-pw@127.0.0.1:8080/kobis", key: Self.kobisKey, setting: "KOBIS_API_KEY")
        let redactor = Redactor(endpoint.secrets)
        let escaped = Self.kobisKey.unicodeScalars.map { String(format: "\\u%04X", $0.value) }.joined()
        let mixed = Self.kobisKey.unicodeScalars.enumerated().map { index, scalar in
            index % 2 == 0 ? String(format: "\\u%04x", scalar.value) : String(scalar)
        }.joined()
        let basic = try #require(endpoint.basicAuthorization)
        for echoed in [escaped, mixed, basic, "Authorization: \(basic)"] {
            let body = Array(#"{"faultInfo":{"message":"you sent \#(echoed)","errorCode":"320010"}}"#.utf8)
            let clean = redactor.redact(body)
            let message = try JSONParser.parse(clean)["faultInfo"]?["message"]?.stringValue ?? ""
            #expect(!message.contains(Self.kobisKey) && !message.contains("dXNlcjpzM2NyZXQtcHc="), "\(message)")
            #expect(message.contains("REDACTED"), "\(message)")
        }
        // Not JSON: the escapes are read and the text redacted.
        let page = redactor.redact(Array("<p>key \(escaped)</p>".utf8))
        #expect(String(decoding: page, as: UTF8.self) == "<p>key REDACTED</p>")
    }

    @Test("a base URL's secret that is also a member name is redacted in values only: the answer still decodes")
    func redactionKeepsMemberNames() throws {
        let url = SharedData.repositoryRoot.appending(path: "Fixtures/upstream/kobis/daily-20230426.json")
        let body = [UInt8](try Data(contentsOf: url))
        for baseURL in ["http://user:movieNm@127.0.0.1/kobis", "http://127.0.0.1/kobis?mirror=rank"] {
            let redactor = Redactor(LiveFetcher.Endpoint(baseURL: baseURL, key: nil, setting: "K").secrets)
            let clean = redactor.redact(body)
            let office = try KOBISDecoder.dailyBoxOffice(clean, source: RecordedBodies.source)
            #expect(office.entries.count == 10, "\(baseURL)")
            #expect(office.entries.first?.title == "드림", "\(baseURL)")
        }
    }

    @Test("property: a key embedded anywhere in random text never survives redaction (2,000 texts)")
    func redactionProperty() {
        var generator = SplitMix(seed: 20_261_125)
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789 =&?%+/:;,\"'{}[]가나다KakaoAK\n\t")
        let keys = [Self.kobisKey, Self.kakaoKey, "user:pass@word", "tok3n-value"]
        let redactor = Redactor(keys)
        let urlEncoded = { (key: String) in
            key.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~")))!
        }
        func below(_ bound: Int) -> Int { Int(generator.next() % UInt64(bound)) }
        for _ in 0..<2000 {
            var text = String((0..<below(80)).map { _ in alphabet[below(alphabet.count)] })
            for _ in 0..<below(4) {
                var key = keys[below(keys.count)]
                switch generator.next() % 4 {
                case 0: key = key.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
                case 1: key = urlEncoded(key)
                case 2: key = key.replacingOccurrences(of: "/", with: "\\/")
                default: break
                }
                let at = text.index(text.startIndex, offsetBy: below(text.count + 1))
                text.insert(contentsOf: key, at: at)
            }
            if generator.next() % 3 == 0 { text += " Authorization: KakaoAK \(keys[0])" }
            let clean = redactor.redact(text)
            for key in keys {
                #expect(!clean.contains(key), "\(text) → \(clean)")
                let encoded = key.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
                #expect(!clean.contains(encoded) && !clean.contains(urlEncoded(key)), "\(text) → \(clean)")
                #expect(!clean.contains(key.replacingOccurrences(of: "/", with: "\\/")), "\(text) → \(clean)")
            }
            #expect(!String(decoding: redactor.redact(Array(text.utf8)), as: UTF8.self).contains(keys[0]))
        }
    }

    @Test(
        "download destinations: private, loopback, link-local, shared, unique-local, mapped and numeric forms refused",
        arguments: [
            "10.0.0.1", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254", "100.64.0.1", "127.0.0.1",
            "127.1", "2130706433", "0x7f000001", "0177.0.0.1", "0.0.0.0", "224.0.0.1", "255.255.255.255", "::1",
            "[::1]", "::", "fd00::1", "fc00::1", "fe80::1", "ff02::1", "::ffff:10.0.0.1", "::ffff:127.0.0.1",
            "64:ff9b::a9fe:a9fe", "::ffff:a9fe:a9fe", "2002:7f00:1::1", "64:ff9b:1::1",
        ])
    func refused(_ literal: String) {
        let category = DownloadDestination.category(literal: literal)
        #expect(category != nil, "\(literal) was not read as an address")
        #expect(category.flatMap { $0 } != nil, "\(literal) was allowed")
        #expect(DownloadDestination.refusal(host: literal) != nil)
    }

    @Test(
        "download destinations: public addresses allowed",
        arguments: [
            "8.8.8.8", "1.1.1.1", "172.32.0.1", "100.128.0.1", "211.43.3.90", "2606:4700:4700::1111",
            "::ffff:8.8.8.8", "64:ff9b::808:808",
        ])
    func allowed(_ literal: String) {
        #expect(DownloadDestination.category(literal: literal) == .some(nil), "\(literal)")
        #expect(DownloadDestination.refusal(host: literal) == nil)
    }

    @Test("a host name is not a literal; localhost resolves to loopback and is refused")
    func names() {
        #expect(DownloadDestination.category(literal: "example.com") == nil)
        #expect(DownloadDestination.refusal(host: "localhost") != nil)
        #expect(DownloadDestination.refusal(host: "[::1%lo]") != nil, "a zone form is not looked up")
        // A public literal is connected to as it is; a name is connected to at the address its lookup vetted.
        #expect(DownloadDestination.verdict(host: "93.184.216.34") == .allowed(connectTo: nil))
    }

    @Test("images are told by their first bytes, never by what the server declares")
    func sniffing() {
        #expect(ImageKind(sniffing: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0]) == .png)
        #expect(ImageKind(sniffing: [0xFF, 0xD8, 0xFF, 0xE0, 0]) == .jpeg)
        #expect(ImageKind(sniffing: Array("GIF89a...".utf8)) == .gif)
        #expect(ImageKind(sniffing: Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)) == .webp)
        #expect(ImageKind(sniffing: Array("<html><script>".utf8)) == nil)
        #expect(ImageKind(sniffing: Array("<svg xmlns=\"http://www.w3.org/2000/svg\">".utf8)) == nil)
        #expect(ImageKind(sniffing: [0xFF, 0xD8]) == nil)
        #expect(ImageKind(sniffing: []) == nil)
    }

    @Test("API redirects stay on the origin: scheme, host and port")
    func origins() {
        let from = "https://dapi.kakao.com/v2/search/image?query=x"
        #expect(
            AsyncHTTPClientTransport.sameOriginTarget("/v3/search", from: from) == "https://dapi.kakao.com/v3/search")
        #expect(AsyncHTTPClientTransport.sameOriginTarget("https://dapi.kakao.com:443/a", from: from) != nil)
        #expect(AsyncHTTPClientTransport.sameOriginTarget("//dapi.kakao.com:8443/a", from: from) == nil)
        #expect(AsyncHTTPClientTransport.sameOriginTarget("http://dapi.kakao.com/a", from: from) == nil)
        #expect(AsyncHTTPClientTransport.sameOriginTarget("https://evil.example/a", from: from) == nil)
        #expect(AsyncHTTPClientTransport.sameOriginTarget("http://[::1]:81/a", from: "http://[::1]:80/") == nil)
    }

    @Test("a base URL's user information and query are sent, never shown, and the query joins the request's")
    func baseURLs() {
        let endpoint = LiveFetcher.Endpoint(
            baseURL: "http://user:s3cret-pw@127.0.0.1:8080/kobis/?token=t0ken-value", key: Self.kobisKey,
            setting: "KOBIS_API_KEY")
        #expect(endpoint.baseURL == "http://127.0.0.1:8080/kobis")
        let call = UpstreamCall(service: .kobis, path: KOBISPaths.daily, parameters: ["targetDt": "20230426"])
        let request = LiveFetcher.request(call, endpoint: endpoint, key: Self.kobisKey)
        #expect(
            request.url
                == "http://127.0.0.1:8080/kobis/boxoffice/searchDailyBoxOfficeList.json?token=t0ken-value&targetDt=20230426&key=\(Self.kobisKey)"
        )
        #expect(request.headers.first { $0.0 == "Authorization" }?.1 == "Basic dXNlcjpzM2NyZXQtcHc=")
        for secret in ["s3cret-pw", "t0ken-value", Self.kobisKey, "user:s3cret-pw"] {
            #expect(!request.redactedURL.contains(secret), "\(request.redactedURL)")
            #expect(endpoint.secrets.contains(secret), "\(secret)")
        }
        #expect(Redactor(endpoint.secrets).redact("x s3cret-pw t0ken-value") == "x REDACTED REDACTED")
        let short = LiveFetcher.Endpoint(baseURL: "http://u:pw@h/kobis", key: nil, setting: "K")
        #expect(Redactor(short.secrets).redact("http://u:pw@h/") == "http://REDACTED@h/", "a short pair counts whole")
        let unreadable = LiveFetcher.Endpoint(baseURL: "ht tp://x:y@[::1", key: nil, setting: "K")
        #expect(unreadable.baseURL == "(unreadable base URL)")
    }

    @Test("a body that cannot be decoded is not kept; an answer, even not_found, is")
    func usableBodies() {
        let daily = UpstreamCall(service: .kobis, path: KOBISPaths.daily, parameters: ["targetDt": "20230112"])
        let source = Source(origin: .kobis, fetchedAt: "now")
        let nan = Array(
            #"{"boxOfficeResult":{"boxofficeType":"일별 박스오피스","showRange":"20230112~20230112","dailyBoxOfficeList":[{"rnum":"1","rank":"1","rankInten":"NaN","rankOldAndNew":"OLD","movieCd":"1","movieNm":"x","openDt":"","salesAmt":"1","salesShare":"1.0","salesInten":"0","salesChange":"0","salesAcc":"1","audiCnt":"1","audiInten":"0","audiChange":"0","audiAcc":"1","scrnCnt":"1","showCnt":"1"}]}}"#
                .utf8)
        #expect(!UsableBody.check(daily, Fetched(body: nan, source: source)))
        let good = Array(nan).replacing(Array(#""rankInten":"NaN""#.utf8), with: Array(#""rankInten":"0""#.utf8))
        #expect(UsableBody.check(daily, Fetched(body: good, source: source)))
        let movie = UpstreamCall(service: .kobis, path: KOBISPaths.movieInfo, parameters: ["movieCd": "1"])
        let empty = Array(#"{"movieInfoResult":{"movieInfo":{},"source":"영화진흥위원회"}}"#.utf8)
        #expect(UsableBody.check(movie, Fetched(body: empty, source: source)), "not_found is an answer")
    }
}
