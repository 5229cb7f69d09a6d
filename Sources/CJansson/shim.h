#ifndef BOXOFFICE_CJANSSON_SHIM_H
#define BOXOFFICE_CJANSSON_SHIM_H

#include <jansson.h>
#include <stdio.h>

/* Swift cannot import Jansson's function-like macros, and the reference-count
   helpers are inline functions over atomics; these wrappers give them names
   Swift can call. Only JSONCore imports this module. */

static inline json_type cj_typeof(const json_t *json) { return json_typeof(json); }
static inline json_t *cj_incref(json_t *json) { return json_incref(json); }
static inline void cj_decref(json_t *json) { json_decref(json); }
static inline int cj_error_code(const json_error_t *error) { return (int)json_error_code(error); }
static inline size_t cj_real_precision(int digits) { return JSON_REAL_PRECISION(digits); }
static inline int cj_parser_max_depth(void) { return JSON_PARSER_MAX_DEPTH; }

/* A real as Jansson's dump formats it before its fix-ups ("%.*g"): Swift
   cannot call the variadic snprintf, and withVaList allocates on every call
   (a real costs the writer a twentieth of this otherwise). */
static inline int cj_format_real(char *buffer, size_t size, int precision, double value) {
    return snprintf(buffer, size, "%.*g", precision, value);
}

#endif
