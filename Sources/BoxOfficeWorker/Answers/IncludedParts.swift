import BoxOfficeCore
import JSONCore
import JSONRPC

/// `include: ["detail","poster"]` on a box office: every part of every entry fetched concurrently.
///
/// A part that fails leaves its entry standing with an `errors` list; with a progress token each finished part
/// sends one `notifications/progress` (`total` = parts planned). The fetcher chain bounds the calls in flight per
/// service (10 by default, so one wave covers a page) and makes identical calls once.
enum IncludedParts {
    /// The parts of every entry; `progress` gets (parts done, parts planned, what finished) as each one finishes.
    static func fetch(
        for office: BoxOffice, include: Set<String>, service: BoxOfficeService,
        progress: @Sendable (Double, Double, String) -> Void
    ) async -> [Int: JSONObject] {
        let wantDetail = include.contains("detail")
        let wantPoster = include.contains("poster")
        guard wantDetail || wantPoster else { return [:] }
        let total = office.entries.count * ((wantDetail ? 1 : 0) + (wantPoster ? 1 : 0))
        var extras: [Int: JSONObject] = [:]
        for index in office.entries.indices {
            var parts: JSONObject = [:]
            if wantDetail { parts["detail"] = .null }
            if wantPoster { parts["poster"] = .null }
            extras[index] = parts
        }
        await service.prefetchParts(of: office, details: wantDetail, posters: wantPoster)
        await withTaskGroup(of: (Int, String, Result<JSONValue, RPCError>).self) { group in
            for (index, entry) in office.entries.enumerated() {
                if wantDetail {
                    group.addTask {
                        do throws(BoxOfficeError) {
                            return (
                                index, "detail",
                                .success(ModelEncoding.movie(try await service.movie(code: entry.movieCode)))
                            )
                        } catch {
                            return (index, "detail", .failure(error.rpcError))
                        }
                    }
                }
                if wantPoster {
                    group.addTask {
                        do throws(BoxOfficeError) {
                            return (
                                index, "poster",
                                .success(
                                    ModelEncoding.poster(try await service.poster(title: entry.title, movieCode: nil)))
                            )
                        } catch {
                            return (index, "poster", .failure(error.rpcError))
                        }
                    }
                }
            }
            var finished = 0
            for await (index, part, result) in group {
                finished += 1
                switch result {
                case .success(let value):
                    extras[index]?[part] = value
                case .failure(let error):
                    var errors = extras[index]?["errors"]?.arrayValue ?? []
                    var object = error.json.objectValue ?? [:]
                    object["part"] = .string(part)
                    errors.append(.object(object))
                    extras[index]?["errors"] = .array(errors)
                }
                progress(
                    Double(finished), Double(total), "\(part) of \(office.entries[index].title)")
            }
        }
        return extras
    }
}
