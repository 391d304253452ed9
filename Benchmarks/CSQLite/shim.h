// libsqlite3 (Debian: libsqlite3-dev): the benchmark baseline and the tests' query oracle.
// Never a dependency of a product target.
#include <sqlite3.h>
