// The one C type the benchmark needs to call the peer key-value engines, which it loads at
// run time (dlopen), so that building the benchmark needs none of their packages: LMDB's
// MDB_val, declared with the same members in the same order. Header only; nothing to link.
#include <stddef.h>

typedef struct PeerMDBVal {
    size_t mv_size;
    void *mv_data;
} PeerMDBVal;
