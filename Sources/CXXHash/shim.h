// libxxhash (Debian: libxxhash-dev): XXH3 checksums for records and files.
#include <xxhash.h>
