/* Spawn-to-exit time of a command, measured from C so the harness adds little (Python's subprocess adds about a
 * millisecond of its own to each spawn).
 *
 *   spawntime SPAWNS -- COMMAND [ARGS...]
 *
 * Runs COMMAND SPAWNS times, one after another, stdin from /dev/null and stdout and stderr to /dev/null, and prints
 * one JSON line: {"p10_ms":…,"p50_ms":…,"p90_ms":…}. Exits 1 if any run does not exit 0. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#include "timing.h"

int main(int argc, char **argv) {
    if (argc < 4 || strcmp(argv[2], "--") != 0) {
        fprintf(stderr, "usage: spawntime SPAWNS -- COMMAND [ARGS...]\n");
        return 64;
    }
    int spawns = atoi(argv[1]);
    if (spawns < 1) spawns = 1;
    char **command = argv + 3;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    long long *samples = calloc((size_t)spawns, sizeof *samples);
    for (int i = 0; i < spawns; i++) {
        long long start = now_ns();
        pid_t pid;
        int failed = posix_spawnp(&pid, command[0], &actions, NULL, command, environ);
        if (failed != 0) {
            /* posix_spawnp returns the error number; it does not set errno. */
            fprintf(stderr, "spawntime: cannot start %s: %s\n", command[0], strerror(failed));
            return 1;
        }
        int status;
        if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            fprintf(stderr, "spawntime: %s did not exit 0\n", command[0]);
            return 1;
        }
        samples[i] = now_ns() - start;
    }
    qsort(samples, (size_t)spawns, sizeof *samples, compare);
    printf("{\"p10_ms\":%.3f,\"p50_ms\":%.3f,\"p90_ms\":%.3f}\n", samples[spawns / 10] / 1e6, samples[spawns / 2] / 1e6,
           samples[(spawns * 9) / 10] / 1e6);
    return 0;
}
