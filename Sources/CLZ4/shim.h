// liblz4 (Debian: liblz4-dev): block compression with dictionaries for segment records.
#include <lz4.h>
#include <lz4hc.h>

// Attaches the loaded dictionary stream `dictionary` to the reusable stream `working`, as
// lz4's LZ4_attach_dictionary does; that call is in lz4.h's static-linking-only section and
// Debian's shared liblz4 does not export it. Copying the loaded 16 KiB stream per record (the
// portable way) costs as much as compressing a 4 KiB record. The stream's fields are those of
// the lz4.h compiled against, so this runs only when the library loaded at run time is that
// same version; it returns 0 otherwise and the caller copies the stream instead.
static inline int stockpot_lz4_attach_dictionary(LZ4_stream_t *working, const LZ4_stream_t *dictionary) {
    if (LZ4_versionNumber() != LZ4_VERSION_NUMBER) return 0;
    LZ4_resetStream_fast(working);
    // A current offset of 0 would make every table entry look like a hit in the dictionary.
    if (working->internal_donotuse.currentOffset == 0) working->internal_donotuse.currentOffset = 64 * 1024;
    working->internal_donotuse.dictCtx =
        dictionary->internal_donotuse.dictSize == 0 ? NULL : &dictionary->internal_donotuse;
    return 1;
}

// Prepares the reusable stream `working` for a block without a dictionary.
static inline void stockpot_lz4_reset(LZ4_stream_t *working) {
    LZ4_resetStream_fast(working);
}
