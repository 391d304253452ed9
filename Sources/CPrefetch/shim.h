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

/// Asks for every 64-byte cache line of the `count` bytes from `start` (x86-64 and most ARM
/// cores have 64-byte lines). A hint only, like the one above.
static inline void stockpot_prefetch_lines(const void *start, long count) {
    const char *line = (const char *)((unsigned long)start & ~63UL);
    const char *end = (const char *)start + count;
    for (; line < end; line += 64) {
        __builtin_prefetch(line, 0, 3);
    }
}

#endif
