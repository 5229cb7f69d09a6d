package import BoxOfficeCore

/// `include: ["detail","poster"]` on a box office: every part of every entry fetched concurrently.
///
/// A part that fails leaves its entry standing with the domain error (the result lists it in the entry's `errors`;
/// the CLI prints its message); with a progress token each finished part sends one `notifications/progress`
/// (`total` = parts planned). The fetcher chain bounds the calls in flight per service (20, so one wave
/// covers a page) and makes identical calls once.
package enum IncludedParts {
    /// A part an entry can include.
    package enum Part: String, Sendable, Hashable, CaseIterable {
        case detail, poster
    }

    /// One entry's parts: what came, and what failed.
    package struct Entry: Sendable {
        package var detail: Movie?
        package var poster: PosterSearch?
        /// The parts that failed, in ``Part`` order.
        package var failures: [(part: Part, error: BoxOfficeError)] = []
    }

    /// The parts of every entry, in entry order; `progress` gets (parts done, parts planned, what finished) as each
    /// one finishes.
    package static func fetch(
        for office: BoxOffice, include: Set<Part>, service: BoxOfficeService,
        progress: @Sendable (Double, Double, String) -> Void
    ) async -> [Entry] {
        var entries = Array(repeating: Entry(), count: office.entries.count)
        guard !include.isEmpty else { return entries }
        let total = office.entries.count * include.count
        await service.prefetchParts(
            of: office, details: include.contains(.detail), posters: include.contains(.poster))
        await withTaskGroup(of: (Int, Outcome).self) { group in
            for (index, entry) in office.entries.enumerated() {
                for part in Part.allCases where include.contains(part) {
                    group.addTask { (index, await Outcome.fetch(part, of: entry, service)) }
                }
            }
            var finished = 0
            for await (index, outcome) in group {
                finished += 1
                switch outcome {
                case .detail(let movie): entries[index].detail = movie
                case .poster(let poster): entries[index].poster = poster
                case .failed(let part, let error): entries[index].failures.append((part, error))
                }
                progress(Double(finished), Double(total), "\(outcome.part.rawValue) of \(office.entries[index].title)")
            }
        }
        // In ``Part`` order, whichever finished first.
        for index in entries.indices where entries[index].failures.count > 1 {
            entries[index].failures.sort { $0.part.order < $1.part.order }
        }
        return entries
    }

    /// What one part's call came to.
    private enum Outcome: Sendable {
        case detail(Movie)
        case poster(PosterSearch)
        case failed(Part, BoxOfficeError)

        var part: Part {
            switch self {
            case .detail: .detail
            case .poster: .poster
            case .failed(let part, _): part
            }
        }

        static func fetch(_ part: Part, of entry: BoxOfficeEntry, _ service: BoxOfficeService) async -> Outcome {
            do throws(BoxOfficeError) {
                switch part {
                case .detail: return .detail(try await service.movie(code: entry.movieCode))
                case .poster: return .poster(try await service.poster(title: entry.title, movieCode: nil))
                }
            } catch {
                return .failed(part, error)
            }
        }
    }
}

extension IncludedParts.Part {
    /// The order parts are listed in.
    package var order: Int { Self.allCases.firstIndex(of: self) ?? 0 }
}
