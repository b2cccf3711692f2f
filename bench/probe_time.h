/* What the bench's probes share: a monotonic clock in microseconds and qsort's order for medians. */
#ifndef PROBE_TIME_H
#define PROBE_TIME_H
#include <time.h>

static inline long long now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000000 + t.tv_nsec / 1000;
}

static inline int by_value(const void *a, const void *b) {
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}
#endif
