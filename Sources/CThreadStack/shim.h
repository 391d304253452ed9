// The calling thread's stack bounds (glibc's pthread_getattr_np, which Swift's Glibc module
// does not declare: <pthread.h> declares it only under _GNU_SOURCE), and the current depth of
// the stack. No library: glibc's own.
#ifndef STOCKPOT_THREAD_STACK_H
#define STOCKPOT_THREAD_STACK_H

#include <pthread.h>
#include <stdint.h>

#ifdef __linux__
int pthread_getattr_np(pthread_t thread, pthread_attr_t *attributes);
#endif

/// The lowest address of the calling thread's stack, or 0 when it cannot be told.
static inline uintptr_t stockpot_thread_stack_low(void) {
#ifdef __linux__
    pthread_attr_t attributes;
    if (pthread_getattr_np(pthread_self(), &attributes) != 0) return 0;
    void *address = 0;
    size_t size = 0;
    int status = pthread_attr_getstack(&attributes, &address, &size);
    pthread_attr_destroy(&attributes);
    return status == 0 ? (uintptr_t)address : 0;
#else
    return 0;
#endif
}

/// An address in the calling function's frame: how deep the stack is now. A local's address
/// would not do: AddressSanitizer's use-after-return check moves locals whose address is
/// taken to a fake stack elsewhere in memory.
static inline __attribute__((always_inline)) uintptr_t stockpot_stack_address(void) {
    return (uintptr_t)__builtin_frame_address(0);
}

#endif
