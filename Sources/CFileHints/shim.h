// A hint to the kernel that the engine's commit will fsync a range soon: start writing it back
// now (Linux's sync_file_range with SYNC_FILE_RANGE_WRITE, which Swift's Glibc module does
// not declare), so that the fsync waits for less. No library: glibc's own call.
#ifndef STOCKPOT_FILE_HINTS_H
#define STOCKPOT_FILE_HINTS_H

#include <stdint.h>

#ifdef __linux__
// Declared here with glibc's signature (off64_t is int64_t on 64-bit Linux): <fcntl.h>
// declares it only under _GNU_SOURCE, which a module shared with Swift's Glibc cannot set.
int sync_file_range(int fd, int64_t offset, int64_t count, unsigned int flags);
#endif

/// Starts writeback of the `count` bytes at `offset` of `fd` without waiting for it. A hint
/// only: durability still comes from fsync. Returns 0, or -1 with errno set (ignored by the
/// engine); does nothing on systems without the call.
static inline int stockpot_start_writeback(int fd, int64_t offset, int64_t count) {
#ifdef __linux__
    return sync_file_range(fd, offset, count, 2 /* SYNC_FILE_RANGE_WRITE */);
#else
    (void)fd; (void)offset; (void)count;
    return 0;
#endif
}

#endif
