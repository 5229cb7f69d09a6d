/// A cairo surface being drawn on, with what a card draws: rounded boxes, text set by Pango, posters. Sizes are
/// in the card's points; the surface has `scale` pixels per point, so text and posters stay sharp on the
/// high-density screens bots' pictures are mostly seen on.
package final class CardCanvas {
    /// An sRGB colour, 0–1 a channel.
    package struct Colour {
        package var red: Double, green: Double, blue: Double

        package init(_ hex: UInt32) {
            red = Double((hex >> 16) & 0xFF) / 255
            green = Double((hex >> 8) & 0xFF) / 255
            blue = Double(hex & 0xFF) / 255
        }
    }

    /// How a text's line is set: a font, a colour, a width past which it is cut with "…" (or wrapped).
    package struct TextStyle {
        package var font: String
        package var colour: Colour
        package var alignment: Alignment = .left
        /// Wraps onto more lines instead of cutting with "…".
        package var wraps = false

        package enum Alignment: Int32 { case left = 0, center = 1, right = 2 }
    }

    private let library: PangoCairo
    private let surface: OpaquePointer
    private let context: OpaquePointer
    package let scale: Double
    private let pixelWidth: Int
    private let pixelHeight: Int
    /// A canvas that only measures: text is laid out (its height counts) but nothing is painted.
    package let measuring: Bool
    /// Whether a text had a Hangul syllable no installed font has: the Hangul font is missing, and the card would
    /// be boxes ("tofu") — refused with the package to install.
    private(set) var missedHangul = false
    /// How many texts were longer than ``longestText`` and cut.
    private(set) var cutTexts = 0
    /// Characters by whether some installed font draws them, as found.
    private var drawable: [Character: Bool] = [:]

    /// The most characters of one text a card sets. A title of 488 KB once took 10 s and 124 MB to lay out, and
    /// one of 9 KB made a card taller than cairo's surfaces go: a card is a picture to glance at.
    package static let longestText = 300

    package init(_ library: PangoCairo, width: Double, height: Double, scale: Double, measuring: Bool = false)
        throws(CardError)
    {
        self.library = library
        self.scale = scale
        self.measuring = measuring
        pixelWidth = Int((width * scale).rounded(.up))
        pixelHeight = Int((height * scale).rounded(.up))
        // CAIRO_FORMAT_RGB24: the card is opaque.
        guard
            let surface = library.imageSurfaceCreate(1, Int32(pixelWidth), Int32(pixelHeight)),
            library.surfaceStatus(surface) == 0, let context = library.create(surface)
        else {
            throw CardError("cairo could not make a \(Int(width))×\(Int(height)) card")
        }
        self.surface = surface
        self.context = context
        library.scale(context, scale, scale)
    }

    deinit {
        library.destroy(context)
        library.surfaceDestroy(surface)
    }

    package func box(_ x: Double, _ y: Double, _ width: Double, _ height: Double, radius: Double = 0, _ colour: Colour)
    {
        guard !measuring else { return }
        outline(x, y, width, height, radius: radius)
        library.setSourceRGB(context, colour.red, colour.green, colour.blue)
        library.fill(context)
    }

    /// Sets `text` in a box `width` wide with its top at `y`; the height it took. With `draw` false it is only
    /// measured.
    @discardableResult
    package func text(_ text: String, _ x: Double, _ y: Double, width: Double, _ style: TextStyle, draw: Bool = true)
        -> Double
    {
        guard let layout = library.createLayout(context) else { return 0 }
        defer { library.objectUnref(UnsafeMutableRawPointer(layout)) }
        let font = library.fontDescriptionFromString(style.font)
        library.layoutSetFontDescription(layout, font)
        library.fontDescriptionFree(font)
        library.layoutSetWidth(layout, Int32(width * 1024))
        // PANGO_ELLIPSIZE_END, or NONE to wrap.
        library.layoutSetEllipsize(layout, style.wraps ? 0 : 3)
        library.layoutSetAlignment(layout, style.alignment.rawValue)
        var text = text
        // By scalars too: one grapheme can be any length (a letter and 300,000 combining marks).
        if text.unicodeScalars.count > Self.longestText * 4 {
            text = String(String.UnicodeScalarView(text.unicodeScalars.prefix(Self.longestText * 4)))
            cutTexts += 1
        }
        if text.count > Self.longestText {
            text = String(text.prefix(Self.longestText - 1)) + "…"
            cutTexts += 1
        }
        library.layoutSetText(layout, text, -1)
        if library.layoutGetUnknownGlyphsCount(layout) > 0 {
            // Drawn with a stand-in for each character no font has (an emoji without an emoji font, a control's
            // picture): one character must not cost the whole card.
            library.layoutSetText(layout, standIns(text), -1)
        }
        var height: Int32 = 0
        library.layoutGetPixelSize(layout, nil, &height)
        if !measuring, draw {
            library.setSourceRGB(context, style.colour.red, style.colour.green, style.colour.blue)
            library.moveTo(context, x, y)
            library.showLayout(context, layout)
        }
        return Double(height)
    }

    /// `text` with each character no installed font draws replaced by `�` (or `?` where even that is missing).
    private func standIns(_ text: String) -> String {
        let standIn: Character = isDrawable("\u{FFFD}") ? "\u{FFFD}" : "?"
        return String(
            text.map { character in
                if isDrawable(character) { return character }
                if let scalar = character.unicodeScalars.first, (0xAC00...0xD7A3).contains(scalar.value) {
                    missedHangul = true
                }
                return standIn
            })
    }

    /// Whether some installed font has every glyph of `character`.
    private func isDrawable(_ character: Character) -> Bool {
        if let known = drawable[character] { return known }
        guard let layout = library.createLayout(context) else { return false }
        defer { library.objectUnref(UnsafeMutableRawPointer(layout)) }
        library.layoutSetText(layout, String(character), -1)
        let answer = library.layoutGetUnknownGlyphsCount(layout) == 0
        drawable[character] = answer
        return answer
    }

    /// Draws the image file `path` to cover the rounded box (cropped to its shape, centred); false when it cannot
    /// be decoded, and nothing is drawn.
    package func image(_ path: String, _ x: Double, _ y: Double, _ width: Double, _ height: Double, radius: Double)
        -> Bool
    {
        guard !measuring else { return true }
        // Decoded and scaled once to the device pixels the box covers (``PangoCairo/pixels(_:width:height:)``, as
        // the terminal's posters are): cairo then only copies.
        let columns = max(1, Int((width * scale).rounded()))
        let rows = max(1, Int((height * scale).rounded()))
        guard let rgb = library.pixels(path, width: columns, height: rows) else { return false }
        // cairo's RGB24: a native-endian 32-bit word a pixel (B, G, R and an unused byte on little-endian).
        var words = [UInt8](repeating: 0, count: columns * rows * 4)
        for pixel in 0..<columns * rows {
            words[pixel * 4] = rgb[pixel * 3 + 2]
            words[pixel * 4 + 1] = rgb[pixel * 3 + 1]
            words[pixel * 4 + 2] = rgb[pixel * 3]
        }
        return words.withUnsafeMutableBufferPointer { buffer in
            guard
                let picture = library.imageSurfaceCreateForData(
                    buffer.baseAddress, 1, Int32(columns), Int32(rows), Int32(columns * 4))
            else { return false }
            defer { library.surfaceDestroy(picture) }
            library.save(context)
            outline(x, y, width, height, radius: radius)
            library.clip(context)
            library.translate(context, x, y)
            library.scale(context, 1 / scale, 1 / scale)
            library.setSourceSurface(context, picture, 0, 0)
            library.paint(context)
            library.restore(context)
            return true
        }
    }

    /// The surface as a PNG file's bytes (``PNGFile``).
    package func png() throws(CardError) -> [UInt8] {
        library.surfaceFlush(surface)
        guard let data = library.imageSurfaceGetData(surface) else {
            throw CardError("cairo has no pixels for the card")
        }
        let stride = Int(library.imageSurfaceGetStride(surface))
        return try PNGFile.encode(data, width: pixelWidth, height: pixelHeight, stride: stride, zlib: library)
    }

    private func outline(_ x: Double, _ y: Double, _ width: Double, _ height: Double, radius: Double) {
        library.newPath(context)
        guard radius > 0 else {
            library.rectangle(context, x, y, width, height)
            return
        }
        let r = min(radius, width / 2, height / 2)
        library.arc(context, x + width - r, y + r, r, -.pi / 2, 0)
        library.arc(context, x + width - r, y + height - r, r, 0, .pi / 2)
        library.arc(context, x + r, y + height - r, r, .pi / 2, .pi)
        library.arc(context, x + r, y + r, r, .pi, 3 * .pi / 2)
        library.closePath(context)
    }
}
