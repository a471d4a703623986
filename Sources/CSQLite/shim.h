#ifndef COURTSIDE_CSQLITE_SHIM_H
#define COURTSIDE_CSQLITE_SHIM_H
#include <sqlite3.h>
// SQLITE_TRANSIENT and SQLITE_STATIC are casts of integers to function pointers: Swift cannot import them.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }
static inline sqlite3_destructor_type csqlite_static(void) { return SQLITE_STATIC; }
#endif
