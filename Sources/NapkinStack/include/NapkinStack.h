// The return addresses of the calling thread's stack, read from its chain of
// frame records without allocating: what `CreationSite` keys its cache of
// creation lines by. See NapkinStack.c for why it is safe. And, where no
// line can be had (iOS has no `Runtime` module), the symbol name of a
// return address and its demangled form (NapkinSymbols.c).
#ifndef NAPKIN_STACK_H
#define NAPKIN_STACK_H

#include <stddef.h>
#include <stdint.h>

/// Writes up to `max` return addresses of the caller's stack into `out`,
/// innermost first, starting with the return address into the caller's
/// caller (this function's caller is frame 0 and not written); returns how
/// many were written (0 where frame records cannot be walked).
size_t napkin_return_addresses(uintptr_t *out, size_t max);

/// The walk itself, on any chain of frame records (the tests build their
/// own, to check where it stops): from the record at `fp`, inside the
/// stack [`low`, `high`), the first `skip` return addresses left out, the
/// next ones written into `out`, at most `max`. It stops at a record
/// outside [`low`, `high`) or not aligned to a word, at a return address
/// of 0 (not written), or after a record whose next frame pointer is not
/// above its own. Returns how many were written.
size_t napkin_walk_frames(uintptr_t fp, uintptr_t low, uintptr_t high, size_t skip, uintptr_t *out, size_t max);

/// The symbol that contains the code at `address` (a return address: the
/// call before it is looked up), from the dynamic linker's tables
/// (`dladdr`); its name, NUL-terminated and cut to fit, into `name` (`size`
/// bytes). Returns 1 if a symbol was found that is known to contain the
/// address, else 0. On Linux the symbol's size is checked (`dladdr1`); on
/// Apple platforms `dladdr` gives the nearest symbol below the address.
int napkin_symbol_name(uintptr_t address, char *name, size_t size);

/// The Swift runtime's demangling of `mangled` (`swift_demangle`),
/// NUL-terminated and cut to fit, into `out` (`size` bytes). Returns 1 if
/// `mangled` was a Swift symbol, else 0.
int napkin_demangle(const char *mangled, char *out, size_t size);

#endif
