import Synchronization

/// Calls made to each upstream service since start, for `worker.status`.
package final class UpstreamCounters: Sendable {
    private let kobis = Atomic<Int>(0)
    private let kakao = Atomic<Int>(0)

    package init() {}

    func record(_ service: Service) {
        switch service {
        case .kobis: kobis.add(1, ordering: .relaxed)
        case .kakao: kakao.add(1, ordering: .relaxed)
        }
    }

    package var kobisCalls: Int { kobis.load(ordering: .relaxed) }
    package var kakaoCalls: Int { kakao.load(ordering: .relaxed) }
}
