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
#define _GNU_SOURCE
#include "NapkinStack.h"
#include <pthread.h>

#if defined(__x86_64__) || defined(__aarch64__) || defined(__arm64__)
#define NAPKIN_STACK_WALKS 1
#else
#define NAPKIN_STACK_WALKS 0
#endif

#if NAPKIN_STACK_WALKS
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
        uintptr_t next = record[0], ret = record[1];
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
