/// DEC sixel: a picture as a terminal's device control string (`ESC P q … ESC \`), six pixel rows to a band, each
/// colour of a band a run-length-encoded line of sixel characters.
///
/// Written here rather than through libsixel: the grid needs only the encoding of a small RGB picture, and this
/// keeps the worker free of one more library for the terminals that draw sixels. The palette is the 6 × 6 × 6 colour
/// cube (216 registers, within the 256 terminals have), each pixel its nearest colour.
package enum SixelImage {
    /// The sequence that draws `rgb` (`width` × `height` pixels, three bytes a pixel, rows top to bottom).
    package static func encode(rgb: [UInt8], width: Int, height: Int) -> String {
        precondition(rgb.count >= width * height * 3)
        // Each pixel's register in the cube.
        var registers = [UInt8](repeating: 0, count: width * height)
        for pixel in 0..<width * height {
            let red = (Int(rgb[pixel * 3]) * 5 + 127) / 255
            let green = (Int(rgb[pixel * 3 + 1]) * 5 + 127) / 255
            let blue = (Int(rgb[pixel * 3 + 2]) * 5 + 127) / 255
            registers[pixel] = UInt8(red * 36 + green * 6 + blue)
        }
        // Raster attributes: square pixels, the picture's size (so the terminal sizes it before drawing).
        var out = "\u{1B}P0;1;0q\"1;1;\(width);\(height)"
        var used = [Bool](repeating: false, count: 216)
        for register in registers { used[Int(register)] = true }
        for register in 0..<216 where used[register] {
            let (red, green, blue) = (register / 36, register / 6 % 6, register % 6)
            out += "#\(register);2;\(red * 20);\(green * 20);\(blue * 20)"
        }
        for band in stride(from: 0, to: height, by: 6) {
            // The colours this band has, each drawn as one line over the whole width, then back to its start.
            var inBand = [Bool](repeating: false, count: 216)
            for row in band..<min(band + 6, height) {
                for column in 0..<width { inBand[Int(registers[row * width + column])] = true }
            }
            var first = true
            for register in 0..<216 where inBand[register] {
                if !first { out += "$" }
                first = false
                out += "#\(register)"
                var previous: UInt8 = 0
                var run = 0
                for column in 0..<width {
                    var bits: UInt8 = 0
                    for offset in 0..<6 where band + offset < height {
                        if registers[(band + offset) * width + column] == register { bits |= 1 << offset }
                    }
                    if bits == previous || run == 0 {
                        previous = bits
                        run += 1
                    } else {
                        out += Self.run(previous, run)
                        previous = bits
                        run = 1
                    }
                }
                out += Self.run(previous, run)
            }
            out += "-"
        }
        return out + "\u{1B}\\"
    }

    /// `count` sixels of `bits`: `!n` and the character when that is shorter.
    private static func run(_ bits: UInt8, _ count: Int) -> String {
        let character = String(UnicodeScalar(63 + bits))
        return count > 3 ? "!\(count)\(character)" : String(repeating: character, count: count)
    }
}
