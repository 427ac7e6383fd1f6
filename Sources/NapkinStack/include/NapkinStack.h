// The return addresses of the calling thread's stack, read from its chain of
// frame records without allocating: what `CreationSite` keys its cache of
// creation lines by. See NapkinStack.c for why it is safe.
#ifndef NAPKIN_STACK_H
#define NAPKIN_STACK_H

#include <stddef.h>
#include <stdint.h>

/// Writes up to `max` return addresses of the caller's stack into `out`,
/// innermost first, starting with the return address into the caller's
/// caller (this function's caller is frame 0 and not written); returns how
/// many were written (0 where frame records cannot be walked).
size_t napkin_return_addresses(uintptr_t *out, size_t max);

#endif
