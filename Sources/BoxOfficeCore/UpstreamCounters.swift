import Synchronization

/// Calls made to each upstream service since start, for `worker.status`.
public final class UpstreamCounters: Sendable {
    private let kobis = Atomic<Int>(0)
    private let kakao = Atomic<Int>(0)

    public init() {}

    func record(_ service: Service) {
        switch service {
        case .kobis: kobis.add(1, ordering: .relaxed)
        case .kakao: kakao.add(1, ordering: .relaxed)
        }
    }

    public var kobisCalls: Int { kobis.load(ordering: .relaxed) }
    public var kakaoCalls: Int { kakao.load(ordering: .relaxed) }
}
