import BoxOfficeCore
import FoundationEssentials
import Glibc
import JSONCore

/// A drawn card as a result carries it (`card: {mimeType, width, height, bytes, data}`, the PNG in base64, or
/// `{…, path, sha256}` instead of `data` when it was kept in `--files-dir`), and as the MCP face moves it into an
/// `image` block.
struct CardImage: Sendable {
    var png: [UInt8]
    /// The file in `--files-dir` that holds it; nil: the answer carries it in base64.
    var file: PosterFile?

    init(png: [UInt8], file: PosterFile? = nil) {
        self.png = png
        self.file = file
    }

    /// The pixel size, from the PNG's header (IHDR: width and height, big-endian, at bytes 16 and 20).
    var size: (width: Int, height: Int) {
        guard png.count >= 24 else { return (0, 0) }
        func word(_ at: Int) -> Int { png[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (word(16), word(20))
    }

    var json: JSONValue {
        var object: JSONObject = [
            "mimeType": "image/png", "width": .integer(Int64(size.width)), "height": .integer(Int64(size.height)),
            "bytes": .integer(Int64(png.count)),
        ]
        if let file {
            object["path"] = .string(file.path)
            object["sha256"] = .string(file.sha256)
        } else {
            object["data"] = .string(Data(png).base64EncodedString())
        }
        return .object(object)
    }
}
