extension PangoCairo {
    /// The image file at `path` decoded by gdk-pixbuf and scaled to cover `width` × `height` pixels (cropped to
    /// its centre), as RGB bytes, rows top to bottom, a transparent part laid over white; nil when it cannot be
    /// decoded. For the cards' posters and the terminal's.
    func pixels(_ path: String, width: Int, height: Int) -> [UInt8]? {
        var error: OpaquePointer?
        guard width > 0, height > 0, let original = pixbufNewFromFile(path, &error) else {
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
}
