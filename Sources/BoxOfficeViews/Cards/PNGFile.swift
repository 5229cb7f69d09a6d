/// A PNG file of opaque pixels (a cairo surface's RGB24, a poster's RGB), written here with zlib's fastest level.
///
/// cairo's own writer (libpng with zlib's default level and every row filter tried) took 95 of a card's 170 ms.
/// A card is flat colour and text: filtering each row by its left neighbour (PNG filter 1, "Sub") turns the flat
/// runs into zeros, which deflate at level 1 packs as well as the default does there, in a fraction of the time.
package enum PNGFile {
    /// How pixels lie in memory: bytes a pixel, and where in it red, green and blue are.
    package struct Layout {
        package var bytesPerPixel: Int
        package var red: Int, green: Int, blue: Int

        /// cairo's RGB24: a native-endian 32-bit word a pixel, the top byte unused (B, G, R, X on little-endian).
        package static let cairoRGB24 = Layout(bytesPerPixel: 4, red: 2, green: 1, blue: 0)
        /// Three bytes a pixel: R, G, B.
        package static let rgb = Layout(bytesPerPixel: 3, red: 0, green: 1, blue: 2)
    }

    /// The PNG of `width` × `height` pixels at `data` laid out as `layout`, `stride` bytes a row. - Throws: when
    /// zlib fails.
    package static func encode(
        _ data: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int, layout: Layout = .cairoRGB24,
        zlib library: PangoCairo
    ) throws(CardError) -> [UInt8] {
        // Each row: its filter type, then its RGB bytes each minus the byte three before it.
        let rowBytes = 1 + width * 3
        // Every byte is written below; the buffers are not zeroed first (the pages they would touch cost more than
        // the deflate).
        let raw = [UInt8](unsafeUninitializedCapacity: rowBytes * height) { out, initialized in
            for row in 0..<height {
                let source = data + row * stride
                let target = row * rowBytes
                out[target] = 1
                var previous: (UInt8, UInt8, UInt8) = (0, 0, 0)
                for column in 0..<width {
                    let pixel = source + column * layout.bytesPerPixel
                    let (red, green, blue) = (pixel[layout.red], pixel[layout.green], pixel[layout.blue])
                    let at = target + 1 + column * 3
                    out[at] = red &- previous.0
                    out[at + 1] = green &- previous.1
                    out[at + 2] = blue &- previous.2
                    previous = (red, green, blue)
                }
            }
            initialized = rowBytes * height
        }
        var status: Int32 = 0
        let compressed = [UInt8](unsafeUninitializedCapacity: Int(library.compressBound(UInt(raw.count)))) {
            out, initialized in
            var length = UInt(out.count)
            // Z_BEST_SPEED
            status = library.compress2(out.baseAddress, &length, raw, UInt(raw.count), 1)
            initialized = status == 0 ? Int(length) : 0
        }
        guard status == 0 else { throw CardError("zlib could not compress the card (status \(status))") }

        var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        // IHDR: the size, 8 bits a channel, colour type 2 (RGB), deflate, filtered per row, not interlaced.
        chunk("IHDR", bigEndian(width) + bigEndian(height) + [8, 2, 0, 0, 0], into: &file, library)
        chunk("IDAT", compressed, into: &file, library)
        chunk("IEND", [], into: &file, library)
        return file
    }

    private static func bigEndian(_ value: Int) -> [UInt8] {
        [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// Appends a chunk: its length, its type, its data and the CRC of type and data.
    private static func chunk(_ type: String, _ data: [UInt8], into file: inout [UInt8], _ library: PangoCairo) {
        let typed = Array(type.utf8) + data
        file += bigEndian(data.count) + typed
        file += bigEndian(Int(library.crc32(0, typed, UInt32(typed.count)) & 0xFFFF_FFFF))
    }
}
