// The drawing libraries' C functions the cards call (cairo 1.x, Pango 1.x and its cairo binding, GObject and GLib,
// gdk-pixbuf 2.x, zlib), declared once, in C, with their own prototypes, and loaded at run time by
// bo_drawing_open(): the binary keeps no link-time dependency on them, and Swift calls each through a member whose
// type the compiler imports from here (no cast from an untyped address anywhere in Swift).
//
// The libraries' development headers are not needed to build: each prototype below is the library's stable C ABI as
// its reference manual gives it, with the library's opaque structs as incomplete types and its enums as `int` (C
// enums of these libraries are int-sized). This is one of the project's two rooms for C (the other is Jansson's).
#ifndef BOXOFFICE_CDRAWING_H
#define BOXOFFICE_CDRAWING_H

#include <stddef.h>

// The members are marked non-null (each is set once the table is given out); the libraries' own pointers stay
// unmarked, as their headers have them, and Swift sees them as optionals. Clang asks for all or none in a header.
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wnullability-completeness"

typedef struct _cairo cairo_t;
typedef struct _cairo_surface cairo_surface_t;
typedef struct _PangoLayout PangoLayout;
typedef struct _PangoFontDescription PangoFontDescription;
typedef struct _GdkPixbuf GdkPixbuf;
typedef struct _GdkPixbufFormat GdkPixbufFormat;
typedef struct _GError GError;

/// The functions, each a member named as its C function; all non-null once bo_drawing_open() returned the table.
typedef struct BODrawing {
    // cairo
    cairo_surface_t *(*_Nonnull cairo_image_surface_create)(int format, int width, int height);
    cairo_surface_t *(*_Nonnull cairo_image_surface_create_for_data)(
        unsigned char *data, int format, int width, int height, int stride);
    void (*_Nonnull cairo_surface_destroy)(cairo_surface_t *surface);
    int (*_Nonnull cairo_surface_status)(cairo_surface_t *surface);
    cairo_t *(*_Nonnull cairo_create)(cairo_surface_t *target);
    void (*_Nonnull cairo_destroy)(cairo_t *cr);
    void (*_Nonnull cairo_save)(cairo_t *cr);
    void (*_Nonnull cairo_restore)(cairo_t *cr);
    void (*_Nonnull cairo_set_source_rgb)(cairo_t *cr, double red, double green, double blue);
    void (*_Nonnull cairo_set_source_surface)(cairo_t *cr, cairo_surface_t *surface, double x, double y);
    void (*_Nonnull cairo_rectangle)(cairo_t *cr, double x, double y, double width, double height);
    void (*_Nonnull cairo_arc)(cairo_t *cr, double xc, double yc, double radius, double angle1, double angle2);
    void (*_Nonnull cairo_new_path)(cairo_t *cr);
    void (*_Nonnull cairo_close_path)(cairo_t *cr);
    void (*_Nonnull cairo_fill)(cairo_t *cr);
    void (*_Nonnull cairo_clip)(cairo_t *cr);
    void (*_Nonnull cairo_paint)(cairo_t *cr);
    void (*_Nonnull cairo_move_to)(cairo_t *cr, double x, double y);
    void (*_Nonnull cairo_translate)(cairo_t *cr, double tx, double ty);
    void (*_Nonnull cairo_scale)(cairo_t *cr, double sx, double sy);
    unsigned char *(*_Nonnull cairo_image_surface_get_data)(cairo_surface_t *surface);
    int (*_Nonnull cairo_image_surface_get_stride)(cairo_surface_t *surface);
    void (*_Nonnull cairo_surface_flush)(cairo_surface_t *surface);

    // Pango and its cairo binding
    PangoLayout *(*_Nonnull pango_cairo_create_layout)(cairo_t *cr);
    void (*_Nonnull pango_cairo_show_layout)(cairo_t *cr, PangoLayout *layout);
    void (*_Nonnull pango_layout_set_text)(PangoLayout *layout, const char *text, int length);
    void (*_Nonnull pango_layout_set_font_description)(PangoLayout *layout, const PangoFontDescription *desc);
    void (*_Nonnull pango_layout_set_width)(PangoLayout *layout, int width);
    void (*_Nonnull pango_layout_set_ellipsize)(PangoLayout *layout, int ellipsize);
    void (*_Nonnull pango_layout_set_alignment)(PangoLayout *layout, int alignment);
    void (*_Nonnull pango_layout_get_pixel_size)(PangoLayout *layout, int *width, int *height);
    int (*_Nonnull pango_layout_get_unknown_glyphs_count)(PangoLayout *layout);
    PangoFontDescription *(*_Nonnull pango_font_description_from_string)(const char *str);
    void (*_Nonnull pango_font_description_free)(PangoFontDescription *desc);

    // GObject and GLib
    void (*_Nonnull g_object_unref)(void *object);
    void (*_Nonnull g_error_free)(GError *error);

    // gdk-pixbuf
    GdkPixbuf *(*_Nonnull gdk_pixbuf_new_from_file)(const char *filename, GError **error);
    GdkPixbufFormat *(*_Nonnull gdk_pixbuf_get_file_info)(const char *filename, int *width, int *height);
    GdkPixbuf *(*_Nonnull gdk_pixbuf_scale_simple)(
        const GdkPixbuf *src, int dest_width, int dest_height, int interp_type);
    int (*_Nonnull gdk_pixbuf_get_width)(const GdkPixbuf *pixbuf);
    int (*_Nonnull gdk_pixbuf_get_height)(const GdkPixbuf *pixbuf);
    int (*_Nonnull gdk_pixbuf_get_rowstride)(const GdkPixbuf *pixbuf);
    int (*_Nonnull gdk_pixbuf_get_n_channels)(const GdkPixbuf *pixbuf);
    int (*_Nonnull gdk_pixbuf_get_has_alpha)(const GdkPixbuf *pixbuf);
    unsigned char *(*_Nonnull gdk_pixbuf_get_pixels)(const GdkPixbuf *pixbuf);

    // zlib, which libpng loads in any case: the card's PNG is compressed with it
    unsigned long (*_Nonnull compressBound)(unsigned long sourceLen);
    int (*_Nonnull compress2)(
        unsigned char *dest, unsigned long *destLen, const unsigned char *source, unsigned long sourceLen, int level);
    unsigned long (*_Nonnull crc32)(unsigned long crc, const unsigned char *buf, unsigned int len);
} BODrawing;

/// Opens the libraries and their functions: the table (loaded once, then given out as it is), or NULL with what is
/// missing written to `failure` (at most `size` bytes: "libcairo.so.2" for a library, "libcairo.so.2 cairo_arc" for
/// a function its version lacks), tried again on the next call. Thread-safe.
const BODrawing *_Nullable bo_drawing_open(char *_Nonnull failure, size_t size);

#pragma clang diagnostic pop

#endif
