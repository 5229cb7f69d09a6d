// libpq's C functions the PostgreSQL store calls, declared once, in C, with their own prototypes, and loaded at run
// time by bo_libpq_open(): the binary keeps no link-time dependency on libpq, which only a worker given a
// `postgres://` store needs (the `.deb` recommends libpq5; the wheel's README says how to get it).
//
// libpq's development headers are not needed to build: each prototype below is libpq's stable C ABI as its manual
// gives it (libpq.so.5, unchanged since PostgreSQL 10 for these calls), with PGconn and PGresult as incomplete types
// and its enums as `int` with their documented values below. This is the project's third room for C, beside
// Jansson's and the drawing libraries'.
#ifndef BOXOFFICE_CPOSTGRES_H
#define BOXOFFICE_CPOSTGRES_H

#include <stddef.h>

#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wnullability-completeness"

typedef struct pg_conn PGconn;
typedef struct pg_result PGresult;
typedef unsigned int Oid;

// ConnStatusType
enum { BO_CONNECTION_OK = 0, BO_CONNECTION_BAD = 1 };
// PostgresPollingStatusType
enum { BO_PGRES_POLLING_FAILED = 0, BO_PGRES_POLLING_READING = 1, BO_PGRES_POLLING_WRITING = 2, BO_PGRES_POLLING_OK = 3 };
// ExecStatusType
enum { BO_PGRES_EMPTY_QUERY = 0, BO_PGRES_COMMAND_OK = 1, BO_PGRES_TUPLES_OK = 2, BO_PGRES_FATAL_ERROR = 7 };
// PGTransactionStatusType
enum { BO_PQTRANS_IDLE = 0 };
// Error fields (PG_DIAG_*)
enum { BO_PG_DIAG_SQLSTATE = 'C', BO_PG_DIAG_MESSAGE_PRIMARY = 'M' };

/// The functions, each a member named as its C function; all non-null once bo_libpq_open() returned the table.
typedef struct BOLibpq {
    PGconn *(*_Nonnull PQconnectStartParams)(const char *const *keywords, const char *const *values, int expand_dbname);
    int (*_Nonnull PQconnectPoll)(PGconn *conn);
    int (*_Nonnull PQstatus)(const PGconn *conn);
    int (*_Nonnull PQsocket)(const PGconn *conn);
    char *(*_Nonnull PQerrorMessage)(const PGconn *conn);
    void (*_Nonnull PQfinish)(PGconn *conn);
    int (*_Nonnull PQsetnonblocking)(PGconn *conn, int arg);
    int (*_Nonnull PQflush)(PGconn *conn);
    int (*_Nonnull PQsendQueryParams)(PGconn *conn, const char *command, int nParams, const Oid *paramTypes,
                                      const char *const *paramValues, const int *paramLengths,
                                      const int *paramFormats, int resultFormat);
    int (*_Nonnull PQconsumeInput)(PGconn *conn);
    int (*_Nonnull PQisBusy)(PGconn *conn);
    PGresult *(*_Nonnull PQgetResult)(PGconn *conn);
    int (*_Nonnull PQtransactionStatus)(const PGconn *conn);
    int (*_Nonnull PQresultStatus)(const PGresult *res);
    char *(*_Nonnull PQresultErrorField)(const PGresult *res, int fieldcode);
    char *(*_Nonnull PQresultErrorMessage)(const PGresult *res);
    void (*_Nonnull PQclear)(PGresult *res);
    int (*_Nonnull PQntuples)(const PGresult *res);
    int (*_Nonnull PQnfields)(const PGresult *res);
    Oid (*_Nonnull PQftype)(const PGresult *res, int field_num);
    int (*_Nonnull PQgetisnull)(const PGresult *res, int tup_num, int field_num);
    char *(*_Nonnull PQgetvalue)(const PGresult *res, int tup_num, int field_num);
    int (*_Nonnull PQgetlength)(const PGresult *res, int tup_num, int field_num);
    int (*_Nonnull PQlibVersion)(void);
} BOLibpq;

/// Loads libpq.so.5 (once; a failure is tried again on the next call) and returns the table, or NULL with what was
/// missing written to `failure` (the library, or the library and a function).
const BOLibpq *bo_libpq_open(char *_Nonnull failure, size_t failure_size);

#pragma clang diagnostic pop

#endif
