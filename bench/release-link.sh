# Sourced by the bench programs that link against the release build's modules
# (bench/structural-index, bench/report-render). scripts/build-release builds with link-time
# optimisation when SwiftPM offers it (scripts/lto-available): the modules' objects are then LLVM
# bitcode (`.bc`), linked with `-lto=llvm-full`; otherwise machine code (`.o`). An object file
# of the other kind may be left from an earlier build, and is not this build's.

# release_bench MODULE PROGRAM DEPENDENCY...: builds the package as scripts/build-release builds it
# (the same flags, so the same objects), then compiles PROGRAM as module MODULE against the
# objects of the DEPENDENCY modules, linked as the build links them, into .build/release/MODULE.
release_bench() {
  local module=$1 program=$2 release=.build/release
  shift 2
  scripts/build-release >/dev/null
  local link=() extension=o
  if scripts/lto-available; then
    link+=(-lto=llvm-full)
    extension=bc
  fi
  for dependency in "$@"; do
    link+=("$release/$dependency.build"/*."$extension")
  done
  swiftc -O -static-stdlib -module-name "$module" -I "$release/Modules" -I Sources/CZlib -I Sources/CPCRE2 \
    -I Sources/CBrotli -I Sources/CZstd -I Sources/CLzma -I Sources/CBzip2 \
    "$program" "${link[@]}" -lz -lpcre2-8 -lbrotlidec -lbrotlienc -lzstd -llzma -lbz2 -o "$release/$module"
}
