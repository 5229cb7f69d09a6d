/* Ping-pong latency and cold start of a line-oriented program, measured from C so the client's own cost is small.
 *
 *   pingpong ROUNDS SPAWNS -- COMMAND [ARGS...]
 *
 * Prints one JSON line: {"p50_us":…,"p99_us":…,"cold_p50_ms":…}. Ping-pong: one request line written, one answer
 * line read, ROUNDS times over one process. Cold start: spawn, write one line, read the first answer line; the
 * median of SPAWNS fresh processes. PINGPONG_REQUEST, when set, replaces the ping: a request line with one %d
 * for its id (the cache benchmark sends a boxoffice.daily this way). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>

#include "timing.h"

static pid_t spawn(char **command, int *to_child, int *from_child) {
    int in[2], out[2];
    if (pipe(in) || pipe(out)) { perror("pipe"); exit(1); }
    pid_t pid = fork();
    if (pid == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        int devnull = open("/dev/null", 1);
        if (devnull >= 0) dup2(devnull, 2);
        close(in[1]);
        close(out[0]);
        execvp(command[0], command);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    *to_child = in[1];
    *from_child = out[0];
    return pid;
}

/* Reads until a newline; keeps what follows it in `pending`. */
static void read_line(int fd, char *pending, size_t *pending_len) {
    for (;;) {
        char *newline = memchr(pending, '\n', *pending_len);
        if (newline) {
            size_t rest = *pending_len - (size_t)(newline + 1 - pending);
            memmove(pending, newline + 1, rest);
            *pending_len = rest;
            return;
        }
        ssize_t n = read(fd, pending + *pending_len, 65536 - *pending_len);
        if (n <= 0) { fprintf(stderr, "pingpong: the program closed its output\n"); exit(1); }
        *pending_len += (size_t)n;
    }
}

int main(int argc, char **argv) {
    if (argc < 5 || strcmp(argv[3], "--") != 0) {
        fprintf(stderr, "usage: pingpong ROUNDS SPAWNS -- COMMAND [ARGS...]\n");
        return 64;
    }
    int rounds = atoi(argv[1]), spawns = atoi(argv[2]);
    char **command = argv + 4;
    static char pending[65536];
    size_t pending_len = 0;
    char line[1024];
    const char *request = getenv("PINGPONG_REQUEST");
    if (!request) request = "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"ping\"}";

    int to_child, from_child;
    pid_t pid = spawn(command, &to_child, &from_child);
    long long *samples = calloc((size_t)rounds, sizeof *samples);
    for (int i = 0; i < rounds; i++) {
        int length = snprintf(line, sizeof line - 1, request, i);
        line[length++] = '\n';
        long long start = now_ns();
        if (write(to_child, line, (size_t)length) != length) { perror("write"); return 1; }
        read_line(from_child, pending, &pending_len);
        samples[i] = now_ns() - start;
    }
    close(to_child);
    waitpid(pid, NULL, 0);
    close(from_child);
    qsort(samples, (size_t)rounds, sizeof *samples, compare);

    long long *cold = calloc((size_t)spawns, sizeof *cold);
    for (int i = 0; i < spawns; i++) {
        pending_len = 0;
        long long start = now_ns();
        pid = spawn(command, &to_child, &from_child);
        int length = snprintf(line, sizeof line - 1, request, 1);
        line[length++] = '\n';
        if (write(to_child, line, (size_t)length) != length) { perror("write"); return 1; }
        read_line(from_child, pending, &pending_len);
        cold[i] = now_ns() - start;
        close(to_child);
        waitpid(pid, NULL, 0);
        close(from_child);
    }
    qsort(cold, (size_t)spawns, sizeof *cold, compare);

    printf("{\"p50_us\":%.1f,\"p99_us\":%.1f,\"cold_p50_ms\":%.2f}\n", samples[rounds / 2] / 1000.0,
           samples[(int)(rounds * 0.99)] / 1000.0, cold[spawns / 2] / 1e6);
    return 0;
}
