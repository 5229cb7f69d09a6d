import Foundation

/// Cairo, Pango, gdk-pixbuf and zlib, opened when a card is drawn: cairo paints (zlib compresses the PNG), Pango shapes the text
/// (Hangul included: HarfBuzz through fontconfig's CJK font) and gdk-pixbuf decodes the posters (JPEG, PNG, GIF).
///
/// They are opened with `dlopen`, not linked: every other command starts without loading them (glib, fontconfig,
/// HarfBuzz and the rest would add their load time to the 4 ms start), and the worker runs where they are missing,
/// refusing `png` alone with the packages to install. The functions used are the libraries' long-stable C ABI
/// (cairo 1.x, Pango 1.x, gdk-pixbuf 2.x), declared here by their C signatures.
struct PangoCairo {
    typealias Pointer = OpaquePointer

    // cairo
    let imageSurfaceCreate: @convention(c) (Int32, Int32, Int32) -> Pointer?
    let imageSurfaceCreateForData: @convention(c) (UnsafeMutablePointer<UInt8>?, Int32, Int32, Int32, Int32) -> Pointer?
    let surfaceDestroy: @convention(c) (Pointer?) -> Void
    let surfaceStatus: @convention(c) (Pointer?) -> Int32
    let create: @convention(c) (Pointer?) -> Pointer?
    let destroy: @convention(c) (Pointer?) -> Void
    let save: @convention(c) (Pointer?) -> Void
    let restore: @convention(c) (Pointer?) -> Void
    let setSourceRGB: @convention(c) (Pointer?, Double, Double, Double) -> Void
    let setSourceSurface: @convention(c) (Pointer?, Pointer?, Double, Double) -> Void
    let rectangle: @convention(c) (Pointer?, Double, Double, Double, Double) -> Void
    let arc: @convention(c) (Pointer?, Double, Double, Double, Double, Double) -> Void
    let newPath: @convention(c) (Pointer?) -> Void
    let closePath: @convention(c) (Pointer?) -> Void
    let fill: @convention(c) (Pointer?) -> Void
    let clip: @convention(c) (Pointer?) -> Void
    let paint: @convention(c) (Pointer?) -> Void
    let moveTo: @convention(c) (Pointer?, Double, Double) -> Void
    let translate: @convention(c) (Pointer?, Double, Double) -> Void
    let scale: @convention(c) (Pointer?, Double, Double) -> Void
    let imageSurfaceGetData: @convention(c) (Pointer?) -> UnsafeMutablePointer<UInt8>?
    let imageSurfaceGetStride: @convention(c) (Pointer?) -> Int32
    let surfaceFlush: @convention(c) (Pointer?) -> Void

    // Pango and its cairo binding
    let createLayout: @convention(c) (Pointer?) -> Pointer?
    let showLayout: @convention(c) (Pointer?, Pointer?) -> Void
    let layoutSetText: @convention(c) (Pointer?, UnsafePointer<CChar>?, Int32) -> Void
    let layoutSetFontDescription: @convention(c) (Pointer?, Pointer?) -> Void
    let layoutSetWidth: @convention(c) (Pointer?, Int32) -> Void
    let layoutSetEllipsize: @convention(c) (Pointer?, Int32) -> Void
    let layoutSetAlignment: @convention(c) (Pointer?, Int32) -> Void
    let layoutGetPixelSize:
        @convention(c) (Pointer?, UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?) -> Void
    let layoutGetUnknownGlyphsCount: @convention(c) (Pointer?) -> Int32
    let fontDescriptionFromString: @convention(c) (UnsafePointer<CChar>?) -> Pointer?
    let fontDescriptionFree: @convention(c) (Pointer?) -> Void
    let objectUnref: @convention(c) (UnsafeMutableRawPointer?) -> Void

    // gdk-pixbuf
    let pixbufNewFromFile: @convention(c) (UnsafePointer<CChar>?, UnsafeMutablePointer<OpaquePointer?>?) -> Pointer?
    /// The format and the size a file's header declares, without decoding it (NULL: not an image it knows).
    let pixbufGetFileInfo:
        @convention(c) (UnsafePointer<CChar>?, UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?) -> Pointer?
    let pixbufScaleSimple: @convention(c) (Pointer?, Int32, Int32, Int32) -> Pointer?
    let pixbufGetWidth: @convention(c) (Pointer?) -> Int32
    let pixbufGetHeight: @convention(c) (Pointer?) -> Int32
    let pixbufGetRowstride: @convention(c) (Pointer?) -> Int32
    let pixbufGetNChannels: @convention(c) (Pointer?) -> Int32
    let pixbufGetHasAlpha: @convention(c) (Pointer?) -> Int32
    let pixbufGetPixels: @convention(c) (Pointer?) -> UnsafeMutablePointer<UInt8>?
    let errorFree: @convention(c) (OpaquePointer?) -> Void

    // zlib, which libpng loads in any case: the card's PNG is compressed here (``PNGFile``)
    let compressBound: @convention(c) (UInt) -> UInt
    let compress2:
        @convention(c) (UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt>?, UnsafePointer<UInt8>?, UInt, Int32)
            ->
            Int32
    let crc32: @convention(c) (UInt, UnsafePointer<UInt8>?, UInt32) -> UInt

    /// The Debian packages that hold these libraries and a font for Hangul.
    static let packages = "libpangocairo-1.0-0 libgdk-pixbuf-2.0-0 fonts-noto-cjk"

    /// Opens the libraries. - Throws: naming what is missing and the packages to install.
    init() throws(CardError) {
        var handles: [String: UnsafeMutableRawPointer] = [:]
        for library in [
            "libcairo.so.2", "libpango-1.0.so.0", "libpangocairo-1.0.so.0", "libgobject-2.0.so.0",
            "libglib-2.0.so.0", "libgdk_pixbuf-2.0.so.0", "libz.so.1",
        ] {
            guard let handle = dlopen(library, RTLD_NOW | RTLD_LOCAL) else {
                throw CardError("a PNG card needs \(library), which is not installed: apt-get install \(Self.packages)")
            }
            handles[library] = handle
        }
        func symbol<T>(_ library: String, _ name: String, as _: T.Type = T.self) throws(CardError) -> T {
            guard let handle = handles[library], let address = dlsym(handle, name) else {
                throw CardError("\(library) has no \(name): a newer one is needed (apt-get install \(Self.packages))")
            }
            return unsafeBitCast(address, to: T.self)
        }
        let cairo = "libcairo.so.2"
        let pango = "libpango-1.0.so.0"
        let pixbuf = "libgdk_pixbuf-2.0.so.0"
        imageSurfaceCreate = try symbol(cairo, "cairo_image_surface_create")
        imageSurfaceCreateForData = try symbol(cairo, "cairo_image_surface_create_for_data")
        surfaceDestroy = try symbol(cairo, "cairo_surface_destroy")
        surfaceStatus = try symbol(cairo, "cairo_surface_status")
        create = try symbol(cairo, "cairo_create")
        destroy = try symbol(cairo, "cairo_destroy")
        save = try symbol(cairo, "cairo_save")
        restore = try symbol(cairo, "cairo_restore")
        setSourceRGB = try symbol(cairo, "cairo_set_source_rgb")
        setSourceSurface = try symbol(cairo, "cairo_set_source_surface")
        rectangle = try symbol(cairo, "cairo_rectangle")
        arc = try symbol(cairo, "cairo_arc")
        newPath = try symbol(cairo, "cairo_new_path")
        closePath = try symbol(cairo, "cairo_close_path")
        fill = try symbol(cairo, "cairo_fill")
        clip = try symbol(cairo, "cairo_clip")
        paint = try symbol(cairo, "cairo_paint")
        moveTo = try symbol(cairo, "cairo_move_to")
        translate = try symbol(cairo, "cairo_translate")
        scale = try symbol(cairo, "cairo_scale")
        imageSurfaceGetData = try symbol(cairo, "cairo_image_surface_get_data")
        imageSurfaceGetStride = try symbol(cairo, "cairo_image_surface_get_stride")
        surfaceFlush = try symbol(cairo, "cairo_surface_flush")
        createLayout = try symbol("libpangocairo-1.0.so.0", "pango_cairo_create_layout")
        showLayout = try symbol("libpangocairo-1.0.so.0", "pango_cairo_show_layout")
        layoutSetText = try symbol(pango, "pango_layout_set_text")
        layoutSetFontDescription = try symbol(pango, "pango_layout_set_font_description")
        layoutSetWidth = try symbol(pango, "pango_layout_set_width")
        layoutSetEllipsize = try symbol(pango, "pango_layout_set_ellipsize")
        layoutSetAlignment = try symbol(pango, "pango_layout_set_alignment")
        layoutGetPixelSize = try symbol(pango, "pango_layout_get_pixel_size")
        layoutGetUnknownGlyphsCount = try symbol(pango, "pango_layout_get_unknown_glyphs_count")
        fontDescriptionFromString = try symbol(pango, "pango_font_description_from_string")
        fontDescriptionFree = try symbol(pango, "pango_font_description_free")
        objectUnref = try symbol("libgobject-2.0.so.0", "g_object_unref")
        pixbufNewFromFile = try symbol(pixbuf, "gdk_pixbuf_new_from_file")
        pixbufGetFileInfo = try symbol(pixbuf, "gdk_pixbuf_get_file_info")
        pixbufScaleSimple = try symbol(pixbuf, "gdk_pixbuf_scale_simple")
        pixbufGetWidth = try symbol(pixbuf, "gdk_pixbuf_get_width")
        pixbufGetHeight = try symbol(pixbuf, "gdk_pixbuf_get_height")
        pixbufGetRowstride = try symbol(pixbuf, "gdk_pixbuf_get_rowstride")
        pixbufGetNChannels = try symbol(pixbuf, "gdk_pixbuf_get_n_channels")
        pixbufGetHasAlpha = try symbol(pixbuf, "gdk_pixbuf_get_has_alpha")
        pixbufGetPixels = try symbol(pixbuf, "gdk_pixbuf_get_pixels")
        errorFree = try symbol("libglib-2.0.so.0", "g_error_free")
        compressBound = try symbol("libz.so.1", "compressBound")
        compress2 = try symbol("libz.so.1", "compress2")
        crc32 = try symbol("libz.so.1", "crc32")
    }
}
