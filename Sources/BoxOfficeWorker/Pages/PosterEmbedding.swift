import BoxOfficeCore
import Foundation

/// How a page carries a downloaded poster: as a `data:` URI, so the page stays one file, or copied beside a static
/// site's pages, so each day's page stays small and the posters are shared.
enum PosterEmbedding {
    /// The file as a `data:` URI of its type, or nil when it can no longer be read.
    static func dataURI(_ file: PosterFile) -> String? {
        guard let data = FileManager.default.contents(atPath: file.path) else { return nil }
        return "data:\(file.mimeType);base64,\(data.base64EncodedString())"
    }

    /// Copies the file into `folder/posters/` under its own name (its digest: the same poster is copied once) and
    /// answers the page's relative address; nil when it cannot be copied. A `posters` that is not a real folder
    /// (a link planted to send the copies elsewhere) is not written into (``SiteFile``).
    static func copy(_ file: PosterFile, into folder: URL) -> String? {
        let name = URL(fileURLWithPath: file.path).lastPathComponent
        let posters = folder.appendingPathComponent("posters", isDirectory: true)
        let target = posters.appendingPathComponent(name)
        let manager = FileManager.default
        switch SiteFile.entry("posters", in: folder.path) {
        case .none, .folder: break
        case .regular, .link, .other: return nil
        }
        if case .none = SiteFile.entry(name, in: posters.path) {
            do {
                try manager.createDirectory(at: posters, withIntermediateDirectories: true)
                try manager.copyItem(at: URL(fileURLWithPath: file.path), to: target)
            } catch {
                return nil
            }
        }
        return "posters/\(name)"
    }
}
