// The loader of CDrawing.h: dlopen each library, dlsym each function into its member of the table; once loaded, the
// table is given out as it is.
#include "CDrawing.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

enum { CAIRO, PANGO, PANGOCAIRO, GOBJECT, GLIB, PIXBUF, ZLIB, LIBRARIES };

static const char *const library_names[LIBRARIES] = {
    "libcairo.so.2", "libpango-1.0.so.0", "libpangocairo-1.0.so.0", "libgobject-2.0.so.0",
    "libglib-2.0.so.0", "libgdk_pixbuf-2.0.so.0", "libz.so.1",
};

/// Where each function comes from and which member takes it.
struct entry {
    int library;
    const char *name;
    size_t offset;
};

#define FUNCTION(library, name) {library, #name, offsetof(BODrawing, name)}

static const struct entry entries[] = {
    FUNCTION(CAIRO, cairo_image_surface_create), FUNCTION(CAIRO, cairo_image_surface_create_for_data),
    FUNCTION(CAIRO, cairo_surface_destroy), FUNCTION(CAIRO, cairo_surface_status), FUNCTION(CAIRO, cairo_create),
    FUNCTION(CAIRO, cairo_destroy), FUNCTION(CAIRO, cairo_save), FUNCTION(CAIRO, cairo_restore),
    FUNCTION(CAIRO, cairo_set_source_rgb), FUNCTION(CAIRO, cairo_set_source_surface),
    FUNCTION(CAIRO, cairo_rectangle), FUNCTION(CAIRO, cairo_arc), FUNCTION(CAIRO, cairo_new_path),
    FUNCTION(CAIRO, cairo_close_path), FUNCTION(CAIRO, cairo_fill), FUNCTION(CAIRO, cairo_clip),
    FUNCTION(CAIRO, cairo_paint), FUNCTION(CAIRO, cairo_move_to), FUNCTION(CAIRO, cairo_translate),
    FUNCTION(CAIRO, cairo_scale), FUNCTION(CAIRO, cairo_image_surface_get_data),
    FUNCTION(CAIRO, cairo_image_surface_get_stride), FUNCTION(CAIRO, cairo_surface_flush),
    FUNCTION(PANGOCAIRO, pango_cairo_create_layout), FUNCTION(PANGOCAIRO, pango_cairo_show_layout),
    FUNCTION(PANGO, pango_layout_set_text), FUNCTION(PANGO, pango_layout_set_font_description),
    FUNCTION(PANGO, pango_layout_set_width), FUNCTION(PANGO, pango_layout_set_ellipsize),
    FUNCTION(PANGO, pango_layout_set_alignment), FUNCTION(PANGO, pango_layout_get_pixel_size),
    FUNCTION(PANGO, pango_layout_get_unknown_glyphs_count), FUNCTION(PANGO, pango_font_description_from_string),
    FUNCTION(PANGO, pango_font_description_free), FUNCTION(GOBJECT, g_object_unref), FUNCTION(GLIB, g_error_free),
    FUNCTION(PIXBUF, gdk_pixbuf_new_from_file), FUNCTION(PIXBUF, gdk_pixbuf_get_file_info),
    FUNCTION(PIXBUF, gdk_pixbuf_scale_simple), FUNCTION(PIXBUF, gdk_pixbuf_get_width),
    FUNCTION(PIXBUF, gdk_pixbuf_get_height), FUNCTION(PIXBUF, gdk_pixbuf_get_rowstride),
    FUNCTION(PIXBUF, gdk_pixbuf_get_n_channels), FUNCTION(PIXBUF, gdk_pixbuf_get_has_alpha),
    FUNCTION(PIXBUF, gdk_pixbuf_get_pixels), FUNCTION(ZLIB, compressBound), FUNCTION(ZLIB, compress2),
    FUNCTION(ZLIB, crc32),
};

// Every member is a function pointer, so the table is exactly as many as there are entries: a member added to the
// header without its entry here fails the build.
_Static_assert(sizeof(BODrawing) == sizeof(entries) / sizeof(entries[0]) * sizeof(void (*)(void)),
               "every member of BODrawing has its entry");

static BODrawing table;
static char failure_text[160];
static int loaded;
// Only success is remembered: a worker started before the libraries were installed draws once they are.
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void load(void) {
    void *handles[LIBRARIES];
    for (int library = 0; library < LIBRARIES; library++) {
        handles[library] = dlopen(library_names[library], RTLD_NOW | RTLD_LOCAL);
        if (handles[library] == NULL) {
            snprintf(failure_text, sizeof failure_text, "%s", library_names[library]);
            return;
        }
    }
    for (size_t index = 0; index < sizeof(entries) / sizeof(entries[0]); index++) {
        const struct entry *entry = &entries[index];
        void *address = dlsym(handles[entry->library], entry->name);
        if (address == NULL) {
            snprintf(failure_text, sizeof failure_text, "%s %s", library_names[entry->library], entry->name);
            return;
        }
        // POSIX guarantees that an address dlsym gives for a function converts to a function pointer.
        memcpy((char *)&table + entry->offset, &address, sizeof address);
    }
    loaded = 1;
}

const BODrawing *bo_drawing_open(char *failure, size_t size) {
    pthread_mutex_lock(&lock);
    if (!loaded) load();
    int ready = loaded;
    // Copied under the lock: another caller's failed load writes the text too.
    if (!ready && size > 0) snprintf(failure, size, "%s", failure_text);
    pthread_mutex_unlock(&lock);
    return ready ? &table : NULL;
}
