/* What the C timers (pingpong.c, spawntime.c) share: a monotonic clock in nanoseconds and the order qsort sorts
 * their samples by. */
#ifndef BOXOFFICE_BENCH_TIMING_H
#define BOXOFFICE_BENCH_TIMING_H
#include <time.h>

static long long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static int compare(const void *a, const void *b) {
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}
#endif
