// Walking the frame-pointer chain, the one unsafe thing here, and why it
// cannot read outside the stack.
//
// On x86_64 and arm64 (Linux and Apple platforms) every function compiled
// with frame pointers (Swift's code on both, and Apple's ABI requires them
// on arm64) stores a frame record {caller's frame pointer, return address}
// at its frame pointer. Walking that chain from this function's own frame
// gives the return addresses of its callers, in nanoseconds and without
// allocating, which `Runtime`'s `Backtrace.capture` cannot offer (it
// allocates its storage). A frame compiled without frame pointers (some C
// library code, far below the frames we want) may leave a value that is not
// a frame pointer, and an async Swift frame's record points into the heap.
// So every frame pointer is checked before it is read: aligned, strictly
// above the previous one (the stack grows down) and inside the calling
// thread's stack, whose bounds are read once per thread (pthread) and kept in
// a thread-local. A value failing a check ends the walk; nothing outside the
// thread's mapped stack is ever read. `CreationSiteTests` walks it from
// plain, nested, closure and async frames, and runs the walk
// (`napkin_walk_frames`) on chains of records it builds, one for each of
// the checks that end it.
//
// Return addresses may be signed. With pointer authentication (arm64e on
// Apple platforms; Linux code built with `-mbranch-protection=pac-ret`) a
// function signs its return address before saving it in its frame record,
// so the saved value carries a signature in its upper bits and names no
// code until it is stripped. Every address is stripped before it is
// written out: `ptrauth_strip(…, ptrauth_key_return_address)` where the
// compiler has pointer-authentication intrinsics (`<ptrauth.h>`, arm64e),
// else on arm64 the `xpaclri` instruction, a hint that is a no-op on a CPU
// without pointer authentication; nothing elsewhere. The frame pointers
// themselves are never signed. `Scripts/ptrauth-check.sh` runs this file
// under an emulated Armv8.3 CPU with signed return addresses.
#define _GNU_SOURCE
#include "NapkinStack.h"
#include <pthread.h>
#if defined(__has_include)
#if __has_include(<ptrauth.h>)
#include <ptrauth.h>
#define NAPKIN_HAS_PTRAUTH_H 1
#endif
#endif
#ifndef __has_feature
#define __has_feature(x) 0
#endif

#if defined(__x86_64__) || defined(__aarch64__) || defined(__arm64__)
#define NAPKIN_STACK_WALKS 1
#else
#define NAPKIN_STACK_WALKS 0
#endif

#if NAPKIN_STACK_WALKS
/// `address`, a return address read from a frame record, without its
/// pointer-authentication signature (unchanged where there is none).
static inline uintptr_t strip_return_address(uintptr_t address) {
#if defined(NAPKIN_HAS_PTRAUTH_H) && (__has_feature(ptrauth_intrinsics) || defined(__PTRAUTH__))
    return (uintptr_t)ptrauth_strip((void *)address, ptrauth_key_return_address);
#elif defined(__aarch64__) || defined(__arm64__)
    // XPACLRI strips the link register in place; in the hint space, so a
    // no-op (the value unchanged) where pointer authentication is absent.
    register uintptr_t link __asm__("x30") = address;
    __asm__("hint #7" : "+r"(link));
    return link;
#else
    return address;
#endif
}

/// The calling thread's stack, [low, high); both 0 until read, low == high if unknown.
static _Thread_local uintptr_t stack_low, stack_high;
static _Thread_local int stack_known;

static void read_stack_bounds(void) {
    stack_known = 1;
#if defined(__APPLE__)
    pthread_t self = pthread_self();
    uintptr_t high = (uintptr_t)pthread_get_stackaddr_np(self);
    stack_high = high;
    stack_low = high - pthread_get_stacksize_np(self);
#else
    pthread_attr_t attr;
    void *address = NULL;
    size_t size = 0;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
        if (pthread_attr_getstack(&attr, &address, &size) != 0) { address = NULL; size = 0; }
        pthread_attr_destroy(&attr);
    }
    stack_low = (uintptr_t)address;
    stack_high = (uintptr_t)address + size;
#endif
}
#endif

size_t napkin_walk_frames(uintptr_t fp, uintptr_t low, uintptr_t high, size_t skip, uintptr_t *out, size_t max) {
    size_t count = 0;
    while (count < max) {
        if (fp < low || fp + 2 * sizeof(uintptr_t) > high || (fp & (sizeof(uintptr_t) - 1)) != 0) break;
        const uintptr_t *record = (const uintptr_t *)fp;
        uintptr_t next = record[0], ret = strip_return_address(record[1]);
        if (ret == 0) break;
        if (skip > 0) skip--; else out[count++] = ret;
        if (next <= fp) break;
        fp = next;
    }
    return count;
}

__attribute__((noinline))
size_t napkin_return_addresses(uintptr_t *out, size_t max) {
#if NAPKIN_STACK_WALKS
    if (!stack_known) read_stack_bounds();
    return napkin_walk_frames((uintptr_t)__builtin_frame_address(0), stack_low, stack_high, 1, out, max);
#else
    (void)out; (void)max;
    return 0;
#endif
}
