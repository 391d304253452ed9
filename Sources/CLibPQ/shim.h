// libpq (Debian: libpq-dev): the PostgreSQL client library sync talks to its server through
// (docs/sync.md). The header lives in /usr/include/postgresql, which pkg-config libpq gives.
#include <libpq-fe.h>
