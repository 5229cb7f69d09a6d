import BoxOfficeCore
import Foundation
import TestSupport

/// The real recorded upstream bodies in ../shared/data/kobis (read at test time, never copied).
enum RecordedBodies {
    static let folder = "data/kobis"

    static func body(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: SharedData.directory.appending(path: "\(folder)/\(name)")))
    }

    static func names(prefix: String) -> [String] {
        SharedData.files(in: folder).map(\.lastPathComponent).filter { $0.hasPrefix(prefix) && $0.hasSuffix(".json") }
    }

    static let source = Source(origin: .kobis, fetchedAt: "2026-11-21T00:00:00Z")
}
