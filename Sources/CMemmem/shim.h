#ifndef BOXOFFICE_CMEMMEM_SHIM_H
#define BOXOFFICE_CMEMMEM_SHIM_H

/* glibc's memmem (a GNU extension, also in musl and the BSDs), which Swift's
   Glibc module does not import: it is declared only under _GNU_SOURCE, and
   that module is built without it. Declared here as glibc declares it, and
   called through one inline function. Only ByteSearch uses this module. */

#include <stddef.h>

extern void *memmem(const void *haystack, size_t haystack_length, const void *needle, size_t needle_length);

static inline const void *cm_memmem(const void *haystack, size_t haystack_length, const void *needle,
                                    size_t needle_length) {
    return memmem(haystack, haystack_length, needle, needle_length);
}

#endif
