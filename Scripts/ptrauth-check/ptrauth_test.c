// The pointer-authentication check of Sources/NapkinStack, run by
// Scripts/ptrauth-check.sh: built for aarch64 Linux with signed return
// addresses (`-mbranch-protection=pac-ret`) and run under an emulated CPU
// that authenticates pointers (`qemu-aarch64 -cpu max`).
//
// It builds a known call stack (main -> napkin_pac_outer -> napkin_pac_middle
// -> napkin_pac_inner), reads it with napkin_return_addresses, and checks
// that (1) return addresses really were signed in this run (the raw value
// saved in a frame record differs from the address it names, else the
// check would prove nothing), (2) every address read back carries no
// signature (it equals the stripped one, and lies inside the function the
// stack says), and (3) napkin_symbol_name (`dladdr1`) names each frame.
// Exit status 0 when all hold, 1 with one line per failure otherwise.
#define _GNU_SOURCE
#include "NapkinStack.h"
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// NapkinSymbols.c links against the Swift runtime's demangler; this test
// names C symbols only, which are not Swift symbols.
char *swift_demangle(const char *name, size_t length, char *out, size_t *size, unsigned flags) {
    (void)name; (void)length; (void)out; (void)size; (void)flags;
    return NULL;
}

static int failures = 0;
static void fail(const char *what) { printf("FAIL: %s\n", what); failures++; }

enum { depth = 8 };
static uintptr_t addresses[depth];
static size_t count;
/// The raw return address saved in napkin_pac_middle's frame record (into napkin_pac_outer).
static uintptr_t raw_saved;

/// The stripped form of `value`, by the instruction the compiler emits for
/// `__builtin_return_address` under pac-ret (XPACLRI, a hint: a no-op
/// without pointer authentication).
static uintptr_t stripped(uintptr_t value) {
    register uintptr_t link __asm__("x30") = value;
    __asm__("hint #7" : "+r"(link));
    return link;
}

__attribute__((noinline)) void napkin_pac_inner(void) {
    count = napkin_return_addresses(addresses, depth);
    __asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void napkin_pac_middle(void) {
    // This frame's record {caller's fp, return address}, as pac-ret saved it.
    raw_saved = ((const uintptr_t *)__builtin_frame_address(0))[1];
    napkin_pac_inner();
    __asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void napkin_pac_outer(void) {
    napkin_pac_middle();
    __asm__ volatile("" ::: "memory");
}

int main(void) {
    napkin_pac_outer();
    if (raw_saved == stripped(raw_saved)) {
        fail("the saved return address is not signed: build with -mbranch-protection=pac-ret and run on a CPU with pointer authentication (qemu-aarch64 -cpu max)");
    } else {
        printf("ok: a saved return address is signed (%#lx, names %#lx)\n",
               (unsigned long)raw_saved, (unsigned long)stripped(raw_saved));
    }
    // napkin_return_addresses skips its caller (napkin_pac_inner): frame 0
    // returns into napkin_pac_middle, then napkin_pac_outer, then main.
    const char *expected[] = { "napkin_pac_middle", "napkin_pac_outer", "main" };
    size_t expectedCount = sizeof expected / sizeof expected[0];
    if (count < expectedCount) {
        printf("FAIL: %zu return addresses read, %zu expected at least\n", count, expectedCount);
        return 1;
    }
    for (size_t i = 0; i < expectedCount; i++) {
        uintptr_t address = addresses[i];
        if (address != stripped(address)) {
            printf("FAIL: frame %zu: %#lx still carries a signature\n", i, (unsigned long)address);
            failures++;
            continue;
        }
        char name[256];
        if (!napkin_symbol_name(address, name, sizeof name)) {
            printf("FAIL: frame %zu: no symbol for %#lx (expected %s)\n", i, (unsigned long)address, expected[i]);
            failures++;
        } else if (strcmp(name, expected[i]) != 0) {
            printf("FAIL: frame %zu: %#lx is in %s, expected %s\n", i, (unsigned long)address, name, expected[i]);
            failures++;
        } else {
            printf("ok: frame %zu: %#lx is in %s\n", i, (unsigned long)address, name);
        }
    }
    // Frame 1 is the return address napkin_pac_middle saved, signed.
    if (addresses[1] != stripped(raw_saved)) {
        fail("frame 1 is not the stripped form of the return address napkin_pac_middle saved");
    }
    printf(failures == 0 ? "ptrauth check passed\n" : "ptrauth check FAILED\n");
    return failures == 0 ? 0 : 1;
}
