package import BoxOfficeCore

/// The grid as the apps' icon layout shows it: each card under its poster, drawn by the terminal
/// (``TerminalGraphics``). A card whose poster is missing or cannot be decoded keeps an empty place above it, so the
/// cards stay in line.
///
/// Each row of cards first makes room for the posters (newlines, so the terminal scrolls before anything is
/// drawn), goes back up, draws each poster at its card's column between a saved and a restored cursor (terminals
/// leave the cursor in different places after a picture), then goes down past the posters and writes the cards.
package struct PosterGrid {
    /// How many lines a poster takes.
    package static let rows = 12

    package let screen: BoxOfficeScreen
    package let graphics: TerminalGraphics
    /// A character cell in pixels.
    package let cell: (width: Int, height: Int)
    package let library: PangoCairo

    package init(
        screen: BoxOfficeScreen, graphics: TerminalGraphics, cell: (width: Int, height: Int), library: PangoCairo
    ) {
        self.screen = screen
        self.graphics = graphics
        self.cell = cell
        self.library = library
    }

    /// Where a poster goes in its card, and its size in pixels.
    package struct Placement: Equatable {
        /// The 1-based column of the poster's left edge, counted from the card's own first column.
        package var offset: Int
        package var columns: Int
        package var width: Int
        package var height: Int
    }

    /// A 2:3 poster `rows` lines high, centred in the card's width.
    package var placement: Placement {
        let height = Self.rows * cell.height
        let width = min(BoxOfficeScreen.cardColumns * cell.width, (height * 2 + 1) / 3)
        let columns = min(BoxOfficeScreen.cardColumns, (width + cell.width - 1) / cell.width)
        return Placement(
            offset: (BoxOfficeScreen.cardColumns - columns) / 2, columns: columns, width: width, height: height)
    }

    /// The screen for `office`, the posters drawn from `files` (file paths by movie code).
    package func render(_ office: BoxOffice, files: [String: String]) -> String {
        var out = screen.header(office) + "\n\n"
        let place = placement
        for row in screen.gridRows(office.entries, period: ViewFormat.period(office.kind)) {
            var pictures = ""
            for (index, entry) in row.entries.enumerated() {
                guard let path = files[entry.movieCode],
                    let rgb = library.pixels(path, width: place.width, height: place.height)
                else { continue }
                let column = 1 + index * (BoxOfficeScreen.cardColumns + 1) + place.offset
                let picture =
                    switch graphics {
                    case .sixel: SixelImage.encode(rgb: rgb, width: place.width, height: place.height)
                    case .kitty:
                        rgb.withUnsafeBufferPointer { pixels in
                            (try? PNGFile.encode(
                                pixels.baseAddress!, width: place.width, height: place.height, stride: place.width * 3,
                                layout: .rgb, zlib: library)).map {
                                    KittyImage.encode(png: $0, columns: place.columns, rows: Self.rows)
                                } ?? ""
                        }
                    }
                pictures += "\u{1B}7\u{1B}[\(column)G" + picture + "\u{1B}8"
            }
            if !pictures.isEmpty {
                out += String(repeating: "\n", count: Self.rows) + "\u{1B}[\(Self.rows)A" + pictures
                out += "\u{1B}[\(Self.rows)B"
            }
            out += row.lines.joined(separator: "\n") + "\n"
        }
        return out
    }
}
