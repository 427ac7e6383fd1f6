// Naming a return address without the `Runtime` module (iOS): the symbol
// the dynamic linker knows for it, and the Swift runtime's demangling.
//
// What it reads: `dladdr` and `dladdr1` read the loader's own tables of the
// images it mapped, for an address we hand it (a return address read by
// `napkin_return_addresses`, so inside a mapped image); they never read the
// address itself. `swift_demangle` reads the NUL-terminated name `dladdr`
// returned, which lives in the image's string table for as long as the
// image is loaded (app images are never unloaded), and gives back a buffer
// it allocated, freed here after copying. Every copy is cut to the caller's
// buffer and NUL-terminated.
//
// What it cannot promise: `dladdr` answers with the nearest symbol at or
// below the address. On Linux, `dladdr1` also gives the symbol's size, so a
// symbol that ends before the address (the function was not exported) is
// refused; a C library without `dladdr1` (musl) gets no name at all. On Apple platforms there is no size: a binary stripped of its
// local symbols could name a neighbour, which `CreationSite` guards against
// by checking that Napkin's own frames are named correctly first.
#define _GNU_SOURCE
#include "NapkinStack.h"
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#if defined(__GLIBC__)
#include <link.h>
#endif

/// Exported by the Swift runtime (libswiftCore) on every platform: with no
/// output buffer it returns a `malloc`ed, NUL-terminated string, or NULL for
/// a name that is not a Swift symbol.
extern char *swift_demangle(const char *mangledName, size_t mangledNameLength,
                            char *outputBuffer, size_t *outputBufferSize, uint32_t flags);

static void copy_cut(char *out, size_t size, const char *text) {
    if (size == 0) return;
    size_t length = strlen(text);
    if (length >= size) length = size - 1;
    memcpy(out, text, length);
    out[length] = 0;
}

int napkin_symbol_name(uintptr_t address, char *name, size_t size) {
    if (address == 0 || size == 0) return 0;
    // The call instruction, not the one after it (which may begin another function).
    void *code = (void *)(address - 1);
    Dl_info info;
#if defined(__GLIBC__)
    const ElfW(Sym) *symbol = NULL;
    if (dladdr1(code, &info, (void **)&symbol, RTLD_DL_SYMENT) == 0 || info.dli_sname == NULL || symbol == NULL) return 0;
    uintptr_t start = (uintptr_t)info.dli_saddr;
    if ((uintptr_t)code < start || (uintptr_t)code >= start + symbol->st_size) return 0;
#elif defined(__APPLE__)
    if (dladdr(code, &info) == 0 || info.dli_sname == NULL || info.dli_saddr == NULL) return 0;
#else
    // No symbol size to check it against (musl has no dladdr1): no name rather than a neighbour's.
    (void)code; (void)info;
    return 0;
#endif
    copy_cut(name, size, info.dli_sname);
    return 1;
}

int napkin_demangle(const char *mangled, char *out, size_t size) {
    if (mangled == NULL || size == 0) return 0;
    char *demangled = swift_demangle(mangled, strlen(mangled), NULL, NULL, 0);
    if (demangled == NULL) return 0;
    copy_cut(out, size, demangled);
    free(demangled);
    return 1;
}
