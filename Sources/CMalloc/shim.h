#ifndef BOXOFFICE_CMALLOC_SHIM_H
#define BOXOFFICE_CMALLOC_SHIM_H

/* glibc's mallopt, which Swift's Glibc module does not import (it leaves out
   <malloc.h>), with its three settings as named calls. Each returns 1 when
   the allocator took the setting. Only HeapPolicy uses this module. */

#if defined(__linux__)
#include <malloc.h>
#define BOXOFFICE_HAS_MALLOPT 1
static inline int cm_set_arena_max(int arenas) { return mallopt(M_ARENA_MAX, arenas); }
static inline int cm_set_mmap_threshold(int bytes) { return mallopt(M_MMAP_THRESHOLD, bytes); }
static inline int cm_set_trim_threshold(int bytes) { return mallopt(M_TRIM_THRESHOLD, bytes); }
#endif

#endif
