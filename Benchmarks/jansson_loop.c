/* The physical limit of the worker's parser: read lines from stdin, json_loadb each with the worker's flags,
 * json_dumpb it compactly, write it with a newline. Built by Benchmarks/run with `cc -O2 -ljansson`. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    /* --unbuffered: flush after every line, for ping-pong latency (one line in, wait for one line out). */
    int unbuffered = argc > 1 && strcmp(argv[1], "--unbuffered") == 0;
    size_t capacity = 1 << 20;
    char *line = malloc(capacity);
    char *out = malloc(capacity);
    static char outbuf[1 << 16];
    setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);
    ssize_t length;
    size_t size = capacity;
    while ((length = getline(&line, &size, stdin)) > 0) {
        if (line[length - 1] == '\n') length--;
        json_error_t error;
        json_t *value = json_loadb(line, (size_t)length, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &error);
        if (!value) {
            fputs("{\"error\":\"parse\"}\n", stdout);
            if (unbuffered) fflush(stdout);
            continue;
        }
        size_t written = json_dumpb(value, out, capacity, JSON_COMPACT | JSON_ENCODE_ANY);
        json_decref(value);
        fwrite(out, 1, written, stdout);
        fputc('\n', stdout);
        if (unbuffered) fflush(stdout);
    }
    fflush(stdout);
    return 0;
}
