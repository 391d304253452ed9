// Swapping two directories in one atomic step: Linux's renameat2 with RENAME_EXCHANGE, which
// Swift's Glibc module does not declare. No library: glibc's own call (2.28 and later), or
// the raw system call where glibc lacks the wrapper.
#ifndef STOCKPOT_RENAME_EXCHANGE_H
#define STOCKPOT_RENAME_EXCHANGE_H

#include <errno.h>

#ifdef __linux__
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

/// Exchanges the names `first` and `second` (both must exist) atomically: after a crash the
/// directory holds both under the old names or both under the new ones. Returns 0, or -1 with
/// errno set (ENOSYS or EINVAL where the kernel or file system cannot exchange).
static inline int stockpot_rename_exchange(const char *first, const char *second) {
#if defined(__linux__) && defined(SYS_renameat2)
    return (int)syscall(SYS_renameat2, AT_FDCWD, first, AT_FDCWD, second, 2 /* RENAME_EXCHANGE */);
#else
    (void)first; (void)second;
    errno = ENOSYS;
    return -1;
#endif
}

#endif
