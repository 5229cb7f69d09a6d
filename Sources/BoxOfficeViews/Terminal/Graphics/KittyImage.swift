import FoundationEssentials
import Glibc

/// The kitty graphics protocol: a PNG sent in base64 chunks of at most 4,096 bytes (`ESC _ G … ESC \`), shown at
/// the cursor over `columns` × `rows` cells, the cursor left where it was (`C=1`), no answer asked for (`q=2`). A
/// PNG (`f=100`) rather than raw pixels: a poster's escapes are then a tenth of the size.
package enum KittyImage {
    package static func encode(png: [UInt8], columns: Int, rows: Int) -> String {
        let payload = Array(Data(png).base64EncodedString().utf8)
        var out = ""
        var start = 0
        repeat {
            let end = min(payload.count, start + 4096)
            let more = end < payload.count ? 1 : 0
            let control = start == 0 ? "a=T,f=100,q=2,C=1,c=\(columns),r=\(rows),m=\(more)" : "m=\(more)"
            out += "\u{1B}_G\(control);" + String(decoding: payload[start..<end], as: UTF8.self) + "\u{1B}\\"
            start = end
        } while start < payload.count
        return out
    }
}
