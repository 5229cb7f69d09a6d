import Foundation
import JSONCore

/// A drawn card as a result carries it (`card: {mimeType, width, height, bytes, data}`, the PNG in base64), and as
/// the MCP face moves it into an `image` block.
struct CardImage: Sendable {
    var png: [UInt8]

    /// The pixel size, from the PNG's header (IHDR: width and height, big-endian, at bytes 16 and 20).
    var size: (width: Int, height: Int) {
        guard png.count >= 24 else { return (0, 0) }
        func word(_ at: Int) -> Int { png[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (word(16), word(20))
    }

    var json: JSONValue {
        [
            "mimeType": "image/png", "width": .integer(Int64(size.width)), "height": .integer(Int64(size.height)),
            "bytes": .integer(Int64(png.count)), "data": .string(Data(png).base64EncodedString()),
        ]
    }
}
