/// The box office domain: KOBIS and Kakao clients, models, dates and display formatting.
///
/// It arrives with the domain issue; until then the worker serves protocol methods only. The namespace exists so
/// the dependency graph of the architecture is in place from the start.
public enum BoxOfficeCore {
    /// The time zone every box office date is reckoned in.
    public static let timeZoneIdentifier = "Asia/Seoul"
}
