#!/usr/bin/env bash
# Typechecks the package's Apple-only branches on Linux: for UIKit, then for
# AppKit, it compiles the stand-in module (Tests/StandIns/<Kit>, tests only,
# never shipped) into .build-standins/<kit>/, then builds the whole package,
# test targets included, with only that stand-in importable, so that
# `#if canImport(UIKit)` (resp. `canImport(AppKit)`) code is compiled. The
# example packages that depend on this one (Examples/LeakCheckedApp,
# Examples/TestedApp) are built the same way. Any error, or any warning,
# fails. It proves that the code compiles, not that it behaves. The stand-in
# for Apple's `os` module (Tests/StandIns/os) goes next to either kit's, so
# `#if canImport(os)` code (NapkinTrace's signposts) is compiled in both runs.
#
# What is built: every target a kit can change, that is every target with a
# kit branch or importing Napkin or NapkinTesting (whose public API has kit
# branches): the test targets NapkinTests, NapkinTestingTests and
# NapkinTraceTests with everything they depend on, RibHouse and the
# benchmark. napkin-inspect and NapkinInspectTests are left out: they import
# neither, have no kit branch, and NapkinTrace's kit imports are internal, so
# they compile the same with or without a kit (checked below, before
# building; a change that breaks this fails here, naming the file).
# APPLE_TYPECHECK_ALL=1 builds every target anyway (`--build-tests`).
#
#   Scripts/apple-typecheck.sh            # both kits
#   Scripts/apple-typecheck.sh UIKit      # one
#   APPLE_TYPECHECK_EXAMPLES=0 Scripts/apple-typecheck.sh   # skip the examples
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
export NO_COLOR=1

kits=("$@")
[ ${#kits[@]} -gt 0 ] || kits=(UIKit AppKit)
examples=(Examples/LeakCheckedApp Examples/TestedApp)
[ "${APPLE_TYPECHECK_EXAMPLES:-1}" = 1 ] || examples=()

log=$(mktemp)
trap 'rm -f "$log"' EXIT

# Runs a command, shows its output, and fails on its failure or on a warning.
checked() {
  local status=0
  "$@" >"$log" 2>&1 || status=$?
  cat "$log"
  if [ "$status" -ne 0 ]; then
    echo "error: failed (exit $status): $*" >&2
    exit 1
  fi
  if grep -q ' warning: ' "$log"; then
    echo "error: warnings from: $*" >&2
    exit 1
  fi
}

# The targets left out must compile the same whatever the kit: no kit branch,
# no import of a module whose API has kit branches, and the kit imported
# only `internal`ly by the modules they do import.
kit_free=(Sources/napkin-inspect Tests/NapkinInspectTests)
if [ "${APPLE_TYPECHECK_ALL:-0}" != 1 ]; then
  if hits=$(grep -rnE 'canImport\((UIKit|AppKit)\)|import (UIKit|AppKit)\b|import (Napkin|NapkinTesting)$' \
              --include='*.swift' "${kit_free[@]}"); then
    echo "error: a target this script leaves out now depends on the kit; add it to the targets below:" >&2
    echo "$hits" >&2
    exit 1
  fi
  if hits=$(grep -rnE '^[[:space:]]*(@_exported |public |package )?import (UIKit|AppKit|os)\b' \
              --include='*.swift' Sources/NapkinLibc Sources/NapkinTrace Sources/NapkinTraceReader); then
    echo "error: a module napkin-inspect imports exposes the kit or os (import it as 'internal import'):" >&2
    echo "$hits" >&2
    exit 1
  fi
fi

for kit in "${kits[@]}"; do
  case "$kit" in
    UIKit) other=AppKit ;;
    AppKit) other=UIKit ;;
    *) echo "error: unknown kit '$kit' (UIKit or AppKit)" >&2; exit 2 ;;
  esac
  lower=$(tr '[:upper:]' '[:lower:]' <<<"$kit")
  dir="$root/.build-standins/$lower"
  scratch=".build-$lower"

  echo "== $kit stand-in: Tests/StandIns/$kit -> .build-standins/$lower/"
  rm -rf "$dir"
  mkdir -p "$dir"
  sources=("$root/Tests/StandIns/$kit"/*.swift)
  checked swiftc -swift-version 6 -parse-as-library -module-name "$kit" -module-link-name "$kit" \
    -emit-library -o "$dir/lib$kit.so" \
    -emit-module -emit-module-path "$dir/$kit.swiftmodule" \
    "${sources[@]}"
  # Apple's os module (NapkinTrace's signposts, Platform/OSSignposts.swift)
  # exists wherever either kit does: its stand-in goes next to the kit's.
  checked swiftc -swift-version 6 -parse-as-library -module-name os -module-link-name os \
    -emit-library -o "$dir/libos.so" \
    -emit-module -emit-module-path "$dir/os.swiftmodule" \
    "$root"/Tests/StandIns/os/*.swift
  # Swift Testing declares a cross-import overlay for the kit (its
  # Testing.swiftcrossimport lists `_Testing_$kit`), which a file importing
  # both Testing and the kit loads; Apple ships it, Linux does not. An empty
  # stand-in lets the test targets compile.
  overlay="_Testing_$kit"
  printf '// Empty stand-in for Swift Testing'"'"'s %s cross-import overlay.\n' "$kit" >"$dir/$overlay.swift"
  checked swiftc -swift-version 6 -parse-as-library -module-name "$overlay" -module-link-name "$overlay" \
    -emit-library -o "$dir/lib$overlay.so" \
    -emit-module -emit-module-path "$dir/$overlay.swiftmodule" \
    "$dir/$overlay.swift"
  # Only this kit's directory is on the search path: with the same flag,
  # canImport($kit) is true and canImport($other) false.
  probe="$dir/probe.swift"
  printf '#if !canImport(%s)\n#error("%s is not importable")\n#endif\n#if canImport(%s)\n#error("%s is importable")\n#endif\n#if !canImport(os)\n#error("os is not importable")\n#endif\n' \
    "$kit" "$kit" "$other" "$other" >"$probe"
  checked swiftc -typecheck -swift-version 6 -I "$dir" "$probe"

  flags=(-Xswiftc -I -Xswiftc "$dir"
         -Xlinker -L -Xlinker "$dir"
         -Xlinker -rpath -Xlinker "$dir")

  if [ "${APPLE_TYPECHECK_ALL:-0}" = 1 ]; then
    echo "== $kit: swift build --build-tests (every target)"
    checked swift build --build-tests --scratch-path "$scratch" "${flags[@]}"
  else
    for target in NapkinTests NapkinTestingTests NapkinTraceTests RibHouse NapkinBench; do
      echo "== $kit: swift build --target $target (and what it depends on)"
      checked swift build --target "$target" --scratch-path "$scratch" "${flags[@]}"
    done
  fi

  for example in "${examples[@]}"; do
    echo "== $kit: $example (swift build --build-tests)"
    checked swift build --build-tests --package-path "$example" --scratch-path "$example/$scratch" "${flags[@]}"
  done
  echo "== $kit: typechecked, no warnings (canImport($kit) true, canImport($other) false)"
done
