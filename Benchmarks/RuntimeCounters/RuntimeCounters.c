// The counters of RuntimeCounters.h. An executable that links this target
// replaces glibc's allocation entry points and libdispatch's dispatch_async_f
// with versions that count, then call the real ones (glibc's __libc_* entry
// points; dispatch_async_f found with dlsym(RTLD_NEXT)). Symbol interposition
// makes every library in the process (the Swift runtime, Foundation, the
// concurrency runtime's executors) call them. Only benchmark and test
// executables link it: never a library product. Under a sanitizer (which
// replaces malloc itself) and off glibc it counts nothing and says so.
#define _GNU_SOURCE   /* RTLD_NEXT, before any header */
#include "RuntimeCounters.h"

#if defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
#define NAPKIN_SANITIZED 1   /* the sanitizer owns malloc: count nothing */
#endif
#endif

#if defined(__linux__) && defined(__GLIBC__) && !defined(NAPKIN_SANITIZED)
#include <dlfcn.h>
#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>

static _Atomic uint64_t allocations;
static _Atomic uint64_t main_enqueues;
static _Atomic uint64_t other_enqueues;

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

static inline void count_allocation(void) {
    atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
}

void *malloc(size_t size) { count_allocation(); return __libc_malloc(size); }
void *calloc(size_t count, size_t size) { count_allocation(); return __libc_calloc(count, size); }
void *realloc(void *pointer, size_t size) { count_allocation(); return __libc_realloc(pointer, size); }
void *aligned_alloc(size_t alignment, size_t size) { count_allocation(); return __libc_memalign(alignment, size); }
int posix_memalign(void **out, size_t alignment, size_t size) {
    count_allocation();
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return EINVAL;
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL) return ENOMEM;
    *out = pointer;
    return 0;
}

typedef void (*work_function)(void *);
typedef void (*async_function)(void *queue, void *context, work_function work);

void dispatch_async_f(void *queue, void *context, work_function work) {
    static _Atomic(async_function) real;
    static void *_Atomic main_queue;
    async_function next = atomic_load_explicit(&real, memory_order_acquire);
    if (next == NULL) {
        next = (async_function)dlsym(RTLD_NEXT, "dispatch_async_f");
        atomic_store_explicit(&real, next, memory_order_release);
        atomic_store_explicit(&main_queue, dlsym(RTLD_DEFAULT, "_dispatch_main_q"), memory_order_release);
    }
    if (queue == atomic_load_explicit(&main_queue, memory_order_relaxed)) {
        atomic_fetch_add_explicit(&main_enqueues, 1, memory_order_relaxed);
    } else {
        atomic_fetch_add_explicit(&other_enqueues, 1, memory_order_relaxed);
    }
    next(queue, context, work);
}

int runtime_counters_available(void) { return 1; }
uint64_t runtime_counters_allocations(void) { return atomic_load_explicit(&allocations, memory_order_relaxed); }
uint64_t runtime_counters_main_enqueues(void) { return atomic_load_explicit(&main_enqueues, memory_order_relaxed); }
uint64_t runtime_counters_other_enqueues(void) { return atomic_load_explicit(&other_enqueues, memory_order_relaxed); }

#else

int runtime_counters_available(void) { return 0; }
uint64_t runtime_counters_allocations(void) { return 0; }
uint64_t runtime_counters_main_enqueues(void) { return 0; }
uint64_t runtime_counters_other_enqueues(void) { return 0; }

#endif
