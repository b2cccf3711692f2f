/* make bench: the cost of running a program once (fork, exec, its work, exit, reap), median of N runs, so the
 * setuid helper's start-up for a non-TPM check can be set beside /bin/true's in the same run.
 * Usage: exec_probe N PROGRAM [ARG...]; stdin and stdout are /dev/null. Prints "median_us last_status". */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000000 + t.tv_nsec / 1000;
}

static int by_value(const void *a, const void *b) {
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: exec_probe N PROGRAM [ARG...]\n"); return 2; }
    int runs = atoi(argv[1]);
    if (runs < 1 || runs > 100000) { fprintf(stderr, "exec_probe: N out of range\n"); return 2; }
    long long *took = calloc((size_t)runs, sizeof *took);
    if (took == NULL) return 1;
    int status = 0;
    char *empty[] = { NULL };
    for (int i = 0; i < runs; i++) {
        long long start = now_us();
        pid_t pid = fork();
        if (pid == 0) {
            int null = open("/dev/null", O_RDWR);
            if (null < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0) _exit(127);
            execve(argv[2], argv + 2, empty);
            _exit(127);
        }
        if (pid < 0 || waitpid(pid, &status, 0) != pid) { perror("exec_probe"); return 1; }
        took[i] = now_us() - start;
    }
    qsort(took, (size_t)runs, sizeof *took, by_value);
    printf("%lld %d\n", took[runs / 2], WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
    return 0;
}
