extension PangoCairo {
    /// The image file at `path` decoded by gdk-pixbuf and scaled to cover `width` × `height` pixels (cropped to
    /// its centre), as RGB bytes, rows top to bottom, a transparent part laid over white; nil when it cannot be
    /// decoded, or when its header declares more than ``largestPoster`` pixels or a shape no poster has. For the
    /// cards' posters and the terminal's.
    package func pixels(_ path: String, width: Int, height: Int) -> [UInt8]? {
        guard width > 0, height > 0, Self.isPosterSized(header(path)) else { return nil }
        var error: OpaquePointer?
        guard let original = pixbufNewFromFile(path, &error) else {
            if let error { errorFree(error) }
            return nil
        }
        defer { objectUnref(UnsafeMutableRawPointer(original)) }
        let sourceWidth = Double(pixbufGetWidth(original))
        let sourceHeight = Double(pixbufGetHeight(original))
        guard sourceWidth > 0, sourceHeight > 0 else { return nil }
        let factor = max(Double(width) / sourceWidth, Double(height) / sourceHeight)
        let scaledWidth = max(width, Int((sourceWidth * factor).rounded()))
        let scaledHeight = max(height, Int((sourceHeight * factor).rounded()))
        // GDK_INTERP_BILINEAR
        guard let scaled = pixbufScaleSimple(original, Int32(scaledWidth), Int32(scaledHeight), 2),
            let source = pixbufGetPixels(scaled)
        else { return nil }
        defer { objectUnref(UnsafeMutableRawPointer(scaled)) }
        let channels = Int(pixbufGetNChannels(scaled))
        let alpha = pixbufGetHasAlpha(scaled) != 0
        let rowstride = Int(pixbufGetRowstride(scaled))
        let (left, top) = ((scaledWidth - width) / 2, (scaledHeight - height) / 2)
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        for row in 0..<height {
            for column in 0..<width {
                let from = (top + row) * rowstride + (left + column) * channels
                let to = (row * width + column) * 3
                let opacity = alpha ? Int(source[from + 3]) : 255
                for channel in 0..<3 {
                    rgb[to + channel] = UInt8((Int(source[from + channel]) * opacity + 255 * (255 - opacity)) / 255)
                }
            }
        }
        return rgb
    }

    /// The most pixels a poster may declare: 4096 × 4096, 64 MB decoded. A download is at most a few megabytes, but
    /// a compressed picture can declare any size: an 87-byte PNG asked for about 480 MB. The header is read
    /// (``header(_:)``) and such a file refused before anything is allocated.
    package static let largestPoster = 4096 * 4096
    /// The longest side over the shortest a poster may have: covering a card's box from a 1 × 100,000 strip would
    /// scale it to millions of pixels.
    package static let widestShape = 16

    /// The width and height the image file's header declares, or nil when gdk-pixbuf does not know its format.
    package func header(_ path: String) -> (width: Int, height: Int)? {
        var width: Int32 = 0
        var height: Int32 = 0
        guard pixbufGetFileInfo(path, &width, &height) != nil else { return nil }
        return (Int(width), Int(height))
    }

    /// Whether a declared size is one to decode.
    package static func isPosterSized(_ size: (width: Int, height: Int)?) -> Bool {
        guard let (width, height) = size, width > 0, height > 0 else { return false }
        return width * height <= largestPoster && max(width, height) <= widestShape * min(width, height)
    }
}
