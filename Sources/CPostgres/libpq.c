// The loader of CPostgres.h: dlopen libpq, dlsym each function into its member of the table; once loaded, the table
// is given out as it is.
#include "CPostgres.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static const char library_name[] = "libpq.so.5";

/// Which member takes each function.
struct entry {
    const char *name;
    size_t offset;
};

#define FUNCTION(name) {#name, offsetof(BOLibpq, name)}

static const struct entry entries[] = {
    FUNCTION(PQconnectStartParams), FUNCTION(PQconnectPoll), FUNCTION(PQstatus), FUNCTION(PQsocket),
    FUNCTION(PQerrorMessage), FUNCTION(PQfinish), FUNCTION(PQsetnonblocking), FUNCTION(PQflush),
    FUNCTION(PQsendQueryParams), FUNCTION(PQconsumeInput), FUNCTION(PQisBusy), FUNCTION(PQgetResult),
    FUNCTION(PQtransactionStatus), FUNCTION(PQresultStatus), FUNCTION(PQresultErrorField),
    FUNCTION(PQresultErrorMessage), FUNCTION(PQclear), FUNCTION(PQntuples), FUNCTION(PQnfields), FUNCTION(PQftype),
    FUNCTION(PQgetisnull), FUNCTION(PQgetvalue), FUNCTION(PQgetlength), FUNCTION(PQlibVersion),
};

// Every member is a function pointer, so the table is exactly as many as there are entries: a member added to the
// header without its entry here fails the build.
_Static_assert(sizeof(BOLibpq) == sizeof(entries) / sizeof(entries[0]) * sizeof(void (*)(void)),
               "every member of BOLibpq has its entry");

static BOLibpq table;
static int loaded;
// Only success is remembered: a worker started before libpq was installed connects once it is.
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

const BOLibpq *bo_libpq_open(char *failure, size_t failure_size) {
    pthread_mutex_lock(&lock);
    if (!loaded) {
        void *handle = dlopen(library_name, RTLD_NOW | RTLD_LOCAL);
        if (handle == NULL) {
            snprintf(failure, failure_size, "%s", library_name);
            pthread_mutex_unlock(&lock);
            return NULL;
        }
        for (size_t index = 0; index < sizeof(entries) / sizeof(entries[0]); index++) {
            void *address = dlsym(handle, entries[index].name);
            if (address == NULL) {
                snprintf(failure, failure_size, "%s %s", library_name, entries[index].name);
                pthread_mutex_unlock(&lock);
                return NULL;
            }
            // POSIX guarantees that an address dlsym gives for a function converts to a function pointer.
            memcpy((char *)&table + entries[index].offset, &address, sizeof address);
        }
        loaded = 1;
    }
    pthread_mutex_unlock(&lock);
    return &table;
}
