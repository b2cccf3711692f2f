/*
 * load_probe: in a fresh process, dlopen(RTLD_NOW) a PAM module and look up
 * pam_sm_authenticate, as libpam does at pam_start. Prints
 * "load_us rss_delta_kb". Run it many times; run-bench.sh takes medians.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static long rss_kb(void) {
    long pages = 0, resident = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f == NULL) return -1;
    if (fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = -1;
    fclose(f);
    return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: load_probe MODULE.so\n"); return 2; }
    long before = rss_kb();
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    void *sym = h ? dlsym(h, "pam_sm_authenticate") : NULL;
    clock_gettime(CLOCK_MONOTONIC, &b);
    if (sym == NULL) { fprintf(stderr, "load failed: %s\n", dlerror()); return 1; }
    long after = rss_kb();
    printf("%.1f %ld\n", (b.tv_sec - a.tv_sec) * 1e6 + (b.tv_nsec - a.tv_nsec) / 1e3, after - before);
    return 0;
}
