import Foundation

/// The kitty graphics protocol: RGB pixels sent in base64 chunks of at most 4,096 bytes (`ESC _ G … ESC \`), shown
/// at the cursor over `columns` × `rows` cells, the cursor left where it was (`C=1`), no answer asked for (`q=2`).
enum KittyImage {
    static func encode(rgb: [UInt8], width: Int, height: Int, columns: Int, rows: Int) -> String {
        let payload = Array(Data(rgb).base64EncodedString().utf8)
        var out = ""
        var start = 0
        repeat {
            let end = min(payload.count, start + 4096)
            let more = end < payload.count ? 1 : 0
            let control =
                start == 0 ? "a=T,f=24,s=\(width),v=\(height),q=2,C=1,c=\(columns),r=\(rows),m=\(more)" : "m=\(more)"
            out += "\u{1B}_G\(control);" + String(decoding: payload[start..<end], as: UTF8.self) + "\u{1B}\\"
            start = end
        } while start < payload.count
        return out
    }
}
