#ifndef BOXOFFICE_CGLIBCGNU_SHIM_H
#define BOXOFFICE_CGLIBCGNU_SHIM_H

/* Three of glibc's GNU extensions (also in musl), which Swift's Glibc module
   does not import: they are declared only under _GNU_SOURCE, and that module
   is built without it. Declared here as glibc declares them, and called
   through inline functions. ByteSearch uses the first, OutputWriter the
   second, the worker's input pump the third. */

#include <pthread.h>
#include <stddef.h>
#include <sys/types.h>
#include <sys/uio.h>

extern void *memmem(const void *haystack, size_t haystack_length, const void *needle, size_t needle_length);
extern ssize_t pwritev2(int fd, const struct iovec *vector, int count, off_t offset, int flags);
extern int pthread_getattr_default_np(pthread_attr_t *attributes);

/* RWF_NOWAIT from <linux/fs.h>: fail with EAGAIN instead of waiting. */
#define CG_RWF_NOWAIT 0x00000008

static inline const void *cg_memmem(const void *haystack, size_t haystack_length, const void *needle,
                                    size_t needle_length) {
    return memmem(haystack, haystack_length, needle, needle_length);
}

/* write(2) at the descriptor's own position that never waits for room: it
   writes what fits now and returns the count, or fails with EAGAIN when
   nothing fits. Pipes take it from Linux 6.4 on, sockets and some file
   systems from 4.14 (the flag's first kernel); where the descriptor or the
   kernel cannot, it fails with EOPNOTSUPP, EINVAL or ENOSYS. */
static inline ssize_t cg_write_without_waiting(int fd, const void *bytes, size_t length) {
    struct iovec vector = {(void *)bytes, length};
    return pwritev2(fd, &vector, 1, -1, CG_RWF_NOWAIT);
}

/* The stack size in bytes a thread made with default attributes gets (as
   SwiftNIO's event loop threads are), or 0 when it cannot be learned. */
static inline size_t cg_default_thread_stack_size(void) {
    pthread_attr_t attributes;
    if (pthread_getattr_default_np(&attributes) != 0) return 0;
    size_t size = 0;
    if (pthread_attr_getstacksize(&attributes, &size) != 0) size = 0;
    pthread_attr_destroy(&attributes);
    return size;
}

#endif
