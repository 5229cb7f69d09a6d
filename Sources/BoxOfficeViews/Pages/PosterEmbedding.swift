package import BoxOfficeCore
package import FoundationEssentials
import Glibc

/// How a page carries a downloaded poster: as a `data:` URI, so the page stays one file, or copied beside a static
/// site's pages, so each day's page stays small and the posters are shared.
package enum PosterEmbedding {
    /// The file as a `data:` URI of its type, or nil when it can no longer be read.
    package static func dataURI(_ file: PosterFile) -> String? {
        guard let data = FileManager.default.contents(atPath: file.path) else { return nil }
        return "data:\(file.mimeType);base64,\(data.base64EncodedString())"
    }

    /// Copies the file into `folder/posters/` under its own name (its digest: the same poster is copied once) and
    /// answers the page's relative address; nil when it cannot be copied. The folder is one others may write into
    /// (``SiteFile``): a `posters` that is not a real folder gets no copies, and a page links only a regular file
    /// under the poster's name (one this site wrote), never a link, a FIFO or a folder planted there.
    package static func copy(_ file: PosterFile, into folder: URL) -> String? {
        let name = URL(fileURLWithPath: file.path).lastPathComponent
        let posters = folder.appendingPathComponent("posters", isDirectory: true)
        switch SiteFile.entry("posters", in: folder.path) {
        case .none:
            guard (try? FileManager.default.createDirectory(at: posters, withIntermediateDirectories: false)) != nil
            else { return nil }
        case .folder: break
        case .regular, .link, .other: return nil
        }
        switch SiteFile.entry(name, in: posters.path) {
        case .regular: break
        case .link, .folder, .other: return nil
        case .none:
            guard let data = FileManager.default.contents(atPath: file.path),
                (try? SiteFile.write([UInt8](data), named: name, in: posters.path)) != nil
            else { return nil }
        }
        return "posters/\(name)"
    }
}
