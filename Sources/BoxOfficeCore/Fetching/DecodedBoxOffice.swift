/// A box office decoded from a fetched body once: the model is kept with the body in memory (``DerivedValues``),
/// so the check that decides a body may be cached (``UsableBody``) and every request answered from it share one
/// decoding.
enum DecodedBoxOffice {
    /// The box office in `fetched` (a day's when `period` is nil), decoded now or taken from what its body already
    /// gave.
    static func of(_ fetched: Fetched, period: WeekPeriod?) throws(BoxOfficeError) -> BoxOffice {
        let decode = { () throws(BoxOfficeError) -> BoxOffice in
            if let period {
                try KOBISDecoder.weeklyBoxOffice(fetched, period: period)
            } else {
                try KOBISDecoder.dailyBoxOffice(fetched)
            }
        }
        guard let derived = fetched.derived else { return try decode() }
        return try derived.boxOffice(period: period, decode)
    }
}
