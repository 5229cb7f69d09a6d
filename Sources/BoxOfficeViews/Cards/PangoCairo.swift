import CDrawing
import FoundationEssentials
import Glibc

/// Cairo, Pango, gdk-pixbuf and zlib, opened when a card is drawn: cairo paints (zlib compresses the PNG), Pango shapes the text
/// (Hangul included: HarfBuzz through fontconfig's CJK font) and gdk-pixbuf decodes the posters (JPEG, PNG, GIF).
///
/// They are opened with `dlopen`, not linked: every other command starts without loading them (glib, fontconfig,
/// HarfBuzz and the rest would add their load time to the 4 ms start), and the worker runs where they are missing,
/// refusing `png` alone with the packages to install. The functions used are the libraries' long-stable C ABI
/// (cairo 1.x, Pango 1.x, gdk-pixbuf 2.x), declared once in C (`Sources/CDrawing/include/CDrawing.h`) and loaded
/// there; each member below takes its type from that declaration, so the compiler holds the two equal.
package struct PangoCairo {
    package typealias Pointer = OpaquePointer

    // cairo
    package let imageSurfaceCreate: @convention(c) (Int32, Int32, Int32) -> Pointer?
    package let imageSurfaceCreateForData:
        @convention(c) (UnsafeMutablePointer<UInt8>?, Int32, Int32, Int32, Int32) -> Pointer?
    package let surfaceDestroy: @convention(c) (Pointer?) -> Void
    package let surfaceStatus: @convention(c) (Pointer?) -> Int32
    package let create: @convention(c) (Pointer?) -> Pointer?
    package let destroy: @convention(c) (Pointer?) -> Void
    package let save: @convention(c) (Pointer?) -> Void
    package let restore: @convention(c) (Pointer?) -> Void
    package let setSourceRGB: @convention(c) (Pointer?, Double, Double, Double) -> Void
    package let setSourceSurface: @convention(c) (Pointer?, Pointer?, Double, Double) -> Void
    package let rectangle: @convention(c) (Pointer?, Double, Double, Double, Double) -> Void
    package let arc: @convention(c) (Pointer?, Double, Double, Double, Double, Double) -> Void
    package let newPath: @convention(c) (Pointer?) -> Void
    package let closePath: @convention(c) (Pointer?) -> Void
    package let fill: @convention(c) (Pointer?) -> Void
    package let clip: @convention(c) (Pointer?) -> Void
    package let paint: @convention(c) (Pointer?) -> Void
    package let moveTo: @convention(c) (Pointer?, Double, Double) -> Void
    package let translate: @convention(c) (Pointer?, Double, Double) -> Void
    package let scale: @convention(c) (Pointer?, Double, Double) -> Void
    package let imageSurfaceGetData: @convention(c) (Pointer?) -> UnsafeMutablePointer<UInt8>?
    package let imageSurfaceGetStride: @convention(c) (Pointer?) -> Int32
    package let surfaceFlush: @convention(c) (Pointer?) -> Void

    // Pango and its cairo binding
    package let createLayout: @convention(c) (Pointer?) -> Pointer?
    package let showLayout: @convention(c) (Pointer?, Pointer?) -> Void
    package let layoutSetText: @convention(c) (Pointer?, UnsafePointer<CChar>?, Int32) -> Void
    package let layoutSetFontDescription: @convention(c) (Pointer?, Pointer?) -> Void
    package let layoutSetWidth: @convention(c) (Pointer?, Int32) -> Void
    package let layoutSetEllipsize: @convention(c) (Pointer?, Int32) -> Void
    package let layoutSetAlignment: @convention(c) (Pointer?, Int32) -> Void
    package let layoutGetPixelSize:
        @convention(c) (Pointer?, UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?) -> Void
    package let layoutGetUnknownGlyphsCount: @convention(c) (Pointer?) -> Int32
    package let fontDescriptionFromString: @convention(c) (UnsafePointer<CChar>?) -> Pointer?
    package let fontDescriptionFree: @convention(c) (Pointer?) -> Void
    package let objectUnref: @convention(c) (UnsafeMutableRawPointer?) -> Void

    // gdk-pixbuf
    package let pixbufNewFromFile:
        @convention(c) (UnsafePointer<CChar>?, UnsafeMutablePointer<OpaquePointer?>?) -> Pointer?
    /// The format and the size a file's header declares, without decoding it (NULL: not an image it knows).
    package let pixbufGetFileInfo:
        @convention(c) (UnsafePointer<CChar>?, UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?) -> Pointer?
    package let pixbufScaleSimple: @convention(c) (Pointer?, Int32, Int32, Int32) -> Pointer?
    package let pixbufGetWidth: @convention(c) (Pointer?) -> Int32
    package let pixbufGetHeight: @convention(c) (Pointer?) -> Int32
    package let pixbufGetRowstride: @convention(c) (Pointer?) -> Int32
    package let pixbufGetNChannels: @convention(c) (Pointer?) -> Int32
    package let pixbufGetHasAlpha: @convention(c) (Pointer?) -> Int32
    package let pixbufGetPixels: @convention(c) (Pointer?) -> UnsafeMutablePointer<UInt8>?
    package let errorFree: @convention(c) (OpaquePointer?) -> Void

    // zlib, which libpng loads in any case: the card's PNG is compressed here (``PNGFile``)
    package let compressBound: @convention(c) (UInt) -> UInt
    package let compress2:
        @convention(c) (UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt>?, UnsafePointer<UInt8>?, UInt, Int32)
            ->
            Int32
    package let crc32: @convention(c) (UInt, UnsafePointer<UInt8>?, UInt32) -> UInt

    /// The Debian packages that hold these libraries and a font for Hangul.
    package static let packages = "libpangocairo-1.0-0 libgdk-pixbuf-2.0-0 fonts-noto-cjk"

    /// Opens the libraries (``CDrawing``'s loader: loaded once, then shared). - Throws: naming what is missing and the
    /// packages to install.
    package init() throws(CardError) {
        var failure = [CChar](repeating: 0, count: 160)
        guard let loaded = bo_drawing_open(&failure, failure.count) else {
            let missing = String(decoding: failure.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard missing.contains(" ") else {
                throw CardError("a PNG card needs \(missing), which is not installed: apt-get install \(Self.packages)")
            }
            throw CardError("\(missing) is missing: a newer one is needed (apt-get install \(Self.packages))")
        }
        let c = loaded.pointee
        imageSurfaceCreate = c.cairo_image_surface_create
        imageSurfaceCreateForData = c.cairo_image_surface_create_for_data
        surfaceDestroy = c.cairo_surface_destroy
        surfaceStatus = c.cairo_surface_status
        create = c.cairo_create
        destroy = c.cairo_destroy
        save = c.cairo_save
        restore = c.cairo_restore
        setSourceRGB = c.cairo_set_source_rgb
        setSourceSurface = c.cairo_set_source_surface
        rectangle = c.cairo_rectangle
        arc = c.cairo_arc
        newPath = c.cairo_new_path
        closePath = c.cairo_close_path
        fill = c.cairo_fill
        clip = c.cairo_clip
        paint = c.cairo_paint
        moveTo = c.cairo_move_to
        translate = c.cairo_translate
        scale = c.cairo_scale
        imageSurfaceGetData = c.cairo_image_surface_get_data
        imageSurfaceGetStride = c.cairo_image_surface_get_stride
        surfaceFlush = c.cairo_surface_flush
        createLayout = c.pango_cairo_create_layout
        showLayout = c.pango_cairo_show_layout
        layoutSetText = c.pango_layout_set_text
        layoutSetFontDescription = c.pango_layout_set_font_description
        layoutSetWidth = c.pango_layout_set_width
        layoutSetEllipsize = c.pango_layout_set_ellipsize
        layoutSetAlignment = c.pango_layout_set_alignment
        layoutGetPixelSize = c.pango_layout_get_pixel_size
        layoutGetUnknownGlyphsCount = c.pango_layout_get_unknown_glyphs_count
        fontDescriptionFromString = c.pango_font_description_from_string
        fontDescriptionFree = c.pango_font_description_free
        objectUnref = c.g_object_unref
        pixbufNewFromFile = c.gdk_pixbuf_new_from_file
        pixbufGetFileInfo = c.gdk_pixbuf_get_file_info
        pixbufScaleSimple = c.gdk_pixbuf_scale_simple
        pixbufGetWidth = c.gdk_pixbuf_get_width
        pixbufGetHeight = c.gdk_pixbuf_get_height
        pixbufGetRowstride = c.gdk_pixbuf_get_rowstride
        pixbufGetNChannels = c.gdk_pixbuf_get_n_channels
        pixbufGetHasAlpha = c.gdk_pixbuf_get_has_alpha
        pixbufGetPixels = c.gdk_pixbuf_get_pixels
        errorFree = c.g_error_free
        compressBound = c.compressBound
        compress2 = c.compress2
        crc32 = c.crc32
    }
}
