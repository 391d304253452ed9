// libxxhash (Debian: libxxhash-dev): XXH3 checksums for records and files.
#include <xxhash.h>
#if defined(__x86_64__)
// The library's runtime-dispatched entry points (XXH3_64bits_dispatch): the same hashes,
// computed with the widest vector unit the CPU has (AVX2 here) instead of the SSE2 baseline the
// library is compiled for. Without the replacement macros: callers name the function they mean.
#define XXH_DISPATCH_DISABLE_REPLACE
#include <xxh_x86dispatch.h>
#endif
