/* make bench: the cost of running a program once (fork, exec, its work, exit, reap), median of N runs, so the
 * setuid helper's start-up for a non-TPM check can be set beside /bin/true's in the same run.
 * Usage: exec_probe N PROGRAM [ARG...] [-- PROGRAM [ARG...]]...; stdin and stdout are /dev/null. The programs run
 * in turn (one run of each, N times), so a machine that gets slower or faster meanwhile moves them all alike.
 * Prints "median_us last_status" per program, in the order given. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "probe_time.h"

enum { most_programs = 8 };

/* One run of argv[0]: microseconds, and its status in *status. -1 if it could not be started or reaped. */
static long long run_once(char **argv, int *status) {
    char *empty[] = { NULL };
    long long start = now_us();
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_RDWR);
        if (null < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0) _exit(127);
        execve(argv[0], argv, empty);
        _exit(127);
    }
    if (pid < 0 || waitpid(pid, status, 0) != pid) return -1;
    return now_us() - start;
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: exec_probe N PROGRAM [ARG...] [-- PROGRAM [ARG...]]...\n"); return 2; }
    int runs = atoi(argv[1]);
    if (runs < 1 || runs > 100000) { fprintf(stderr, "exec_probe: N out of range\n"); return 2; }
    /* Split the rest at each "--" into NULL-ended argument vectors. */
    char **programs[most_programs];
    int count = 0;
    programs[count++] = argv + 2;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--") != 0) continue;
        argv[i] = NULL;
        if (i + 1 >= argc || count == most_programs) { fprintf(stderr, "exec_probe: bad program list\n"); return 2; }
        programs[count++] = argv + i + 1;
    }
    long long *took = calloc((size_t)runs * (size_t)count, sizeof *took);
    int status[most_programs] = { 0 };
    if (took == NULL) return 1;
    for (int i = 0; i < runs; i++) {
        for (int p = 0; p < count; p++) {
            took[p * runs + i] = run_once(programs[p], &status[p]);
            if (took[p * runs + i] < 0) { perror("exec_probe"); return 1; }
        }
    }
    for (int p = 0; p < count; p++) {
        qsort(took + p * runs, (size_t)runs, sizeof *took, by_value);
        int s = status[p];
        printf("%lld %d\n", took[p * runs + runs / 2], WIFEXITED(s) ? WEXITSTATUS(s) : 128 + WTERMSIG(s));
    }
    return 0;
}
