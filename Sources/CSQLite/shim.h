#ifndef BOXOFFICE_CSQLITE_SHIM_H
#define BOXOFFICE_CSQLITE_SHIM_H

#include <sqlite3.h>

/* SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift cannot import: this names it. SQLite
   then copies a bound text or blob before the call returns, so Swift's temporary buffers may go. Only the SQLite
   module imports this one. */
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }

#endif
