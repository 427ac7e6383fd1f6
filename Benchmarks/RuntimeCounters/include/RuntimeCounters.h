// Counts, for the benchmarks and the allocation tests, how often this process
// allocates heap memory and hands work to another thread. See RuntimeCounters.c.
#ifndef NAPKIN_RUNTIME_COUNTERS_H
#define NAPKIN_RUNTIME_COUNTERS_H
#include <stdint.h>

/// Whether the counters below count (Linux with glibc); elsewhere they stay 0.
int runtime_counters_available(void);
/// Heap allocations so far (malloc, calloc, realloc, aligned_alloc, posix_memalign), all threads.
uint64_t runtime_counters_allocations(void);
/// Jobs handed to the main queue so far (a hop back to the main actor).
uint64_t runtime_counters_main_enqueues(void);
/// Jobs handed to any other dispatch queue so far (a hop onto an actor or a new task).
uint64_t runtime_counters_other_enqueues(void);

#endif
