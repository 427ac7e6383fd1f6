#!/usr/bin/env bash
# Proves, without a Mac, that Sources/NapkinStack strips signed return
# addresses: compiles NapkinStack.c and NapkinSymbols.c for aarch64 Linux
# with signed return addresses (`-mbranch-protection=pac-ret`), links them
# with Scripts/ptrauth-check/ptrauth_test.c, and runs the result under
# `qemu-aarch64 -cpu max`, which emulates Armv8.3 pointer authentication.
# Two builds: the default one (NapkinStack strips with XPACLRI) and one with
# `-fptrauth-intrinsics`, where NapkinStack takes the `ptrauth_strip(…,
# ptrauth_key_return_address)` path that arm64e builds take on Apple
# platforms. The test fails if the return addresses were not signed at all.
#
# Needs: clang (the Swift toolchain's will do) and ld.lld, qemu-user, and an
# aarch64 C library and libgcc (Debian: qemu-user libc6-dev-arm64-cross
# libgcc-12-dev-arm64-cross, or gcc-aarch64-linux-gnu where the cross libgcc
# has another version; lld). Installs the packages with apt-get when they
# are missing and it can (root, or password-less sudo); otherwise it names
# what is missing and exits 2. Exit 0: both builds passed; 1: a build
# or a check failed.
#
#   Scripts/ptrauth-check.sh
set -euo pipefail
cd "$(dirname "$0")/.."

sysroot=/usr/aarch64-linux-gnu
packages=(qemu-user libc6-dev-arm64-cross libgcc-12-dev-arm64-cross)
missing() {
  ! command -v qemu-aarch64 >/dev/null 2>&1 || [ ! -f "$sysroot/include/stdio.h" ] \
    || ! ls /usr/lib/gcc-cross/aarch64-linux-gnu/*/libgcc.a >/dev/null 2>&1 \
    || ! command -v ld.lld >/dev/null 2>&1
}
if missing && command -v apt-get >/dev/null 2>&1; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo -n"
  apt_install() { DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >/dev/null 2>&1; }
  command -v ld.lld >/dev/null 2>&1 || packages+=(lld)
  echo "== installing ${packages[*]}"
  $sudo apt-get update -qq >/dev/null 2>&1 || true
  # A distribution whose cross libgcc has another version (Ubuntu 24.04: 13)
  # gets it from its default cross compiler instead.
  apt_install "${packages[@]}" || apt_install "${packages[@]/libgcc-12-dev-arm64-cross/gcc-aarch64-linux-gnu}" || true
fi
if missing; then
  echo "error: qemu-aarch64, ld.lld, or the aarch64 C library and libgcc, are missing and could not be installed;" \
       "install the Debian packages ${packages[*]} (apt-get install; lld if the toolchain has no ld.lld) and run again" >&2
  exit 2
fi
cc=$(command -v clang || true)
if [ -z "$cc" ]; then
  echo "error: clang is needed (the Swift toolchain ships it: put its usr/bin on PATH)" >&2
  exit 2
fi

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
status=0
for variant in xpaclri ptrauth_strip; do
  flags=(--target=aarch64-linux-gnu -fuse-ld=lld -O2 -g -std=c11 -Wall -Werror
         -fno-omit-frame-pointer -mbranch-protection=pac-ret -rdynamic -ISources/NapkinStack/include)
  [ "$variant" = ptrauth_strip ] && flags+=(-march=armv8.3-a -fptrauth-intrinsics)
  echo "== $variant: clang ${flags[*]}"
  if ! "$cc" "${flags[@]}" -o "$out/ptrauth-$variant" \
       Sources/NapkinStack/NapkinStack.c Sources/NapkinStack/NapkinSymbols.c \
       Scripts/ptrauth-check/ptrauth_test.c -ldl -lpthread; then
    echo "error: the $variant build failed" >&2
    status=1
    continue
  fi
  qemu-aarch64 -cpu max -L "$sysroot" "$out/ptrauth-$variant" || status=1
done
exit "$status"
