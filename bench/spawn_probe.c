/* make bench: what starting the helper costs a host of some size (a screen locker holds 10-30 MiB). The host
 * here has MIB MiB of its own pages, touched; each round runs PROGRAM through pattern_run_helper (the module's
 * and patternctl's spawn, Sources/CPatternSystem/helper_spawn.c, linked in) or through a plain fork + execve +
 * waitpid (the reference), then writes one byte in each of its pages again, as a host goes on with its work
 * (after a fork every page it writes is a copy-on-write fault). The two ways run in turn, N rounds each.
 * Usage: spawn_probe MIB N PROGRAM. Prints "spawn_us fork_us" (medians of spawn + the host's touch). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "probe_time.h"

#include "pattern_system.h"

static void touch(unsigned char *pages, size_t bytes) {
    for (size_t at = 0; at < bytes; at += 4096) pages[at]++;
}

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: spawn_probe MIB N PROGRAM\n"); return 2; }
    size_t bytes = (size_t)atoi(argv[1]) << 20;
    int rounds = atoi(argv[2]);
    if (bytes == 0 || rounds < 1 || rounds > 100000) { fprintf(stderr, "spawn_probe: out of range\n"); return 2; }
    unsigned char *pages = malloc(bytes);
    long long *spawned = calloc((size_t)rounds, sizeof *spawned), *forked = calloc((size_t)rounds, sizeof *forked);
    if (pages == NULL || spawned == NULL || forked == NULL) return 1;
    memset(pages, 1, bytes);
    char *child_argv[] = { argv[3], NULL };
    char *empty[] = { NULL };
    for (int i = 0; i < rounds; i++) {
        unsigned char output[64];
        size_t length = 0;
        int status = 0;
        long long start = now_us();
        enum pattern_helper_run ran =
            pattern_run_helper(argv[3], child_argv, NULL, 0, output, sizeof output, &length, 5000, &status);
        if (ran != PATTERN_HELPER_EXITED || status != 0) {
            fprintf(stderr, "spawn_probe: pattern_run_helper did not run %s\n", argv[3]);
            return 1;
        }
        touch(pages, bytes);
        spawned[i] = now_us() - start;

        start = now_us();
        pid_t pid = fork();
        if (pid == 0) {
            execve(argv[3], child_argv, empty);
            _exit(127);
        }
        if (pid < 0 || waitpid(pid, &status, 0) != pid || status != 0) { perror("spawn_probe: fork"); return 1; }
        touch(pages, bytes);
        forked[i] = now_us() - start;
    }
    qsort(spawned, (size_t)rounds, sizeof *spawned, by_value);
    qsort(forked, (size_t)rounds, sizeof *forked, by_value);
    printf("%lld %lld\n", spawned[rounds / 2], forked[rounds / 2]);
    return 0;
}
