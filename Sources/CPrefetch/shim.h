// A cache-line prefetch hint, which Swift cannot express: the compiler's builtin, no library.
// Used by the storage engine's point reads to fetch the lines of a key-directory leaf and of a
// record in parallel instead of one miss after another.
#ifndef STOCKPOT_PREFETCH_H
#define STOCKPOT_PREFETCH_H

/// Asks the CPU to start loading the cache line holding `address` for reading. A hint only:
/// it never faults, whatever the address, and changes no result.
static inline void stockpot_prefetch_read(const void *address) {
    __builtin_prefetch(address, 0, 3);
}

#endif
