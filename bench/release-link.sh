# Sourced by the bench programs that link against the release build's modules
# (bench/structural-index, bench/report-render). scripts/build-release builds with link-time
# optimisation when SwiftPM offers it (scripts/lto-available): the modules' objects are then LLVM
# bitcode (`.bc`), linked with `-lto=llvm-full`; otherwise machine code (`.o`). An object file
# of the other kind may be left from an earlier build, and is not this build's.
# Sets `release_link`: the flag and the objects of the modules named in $@.
release_link=()
if scripts/lto-available; then
  release_link+=(-lto=llvm-full)
  extension=bc
else
  extension=o
fi
for module in "$@"; do
  release_link+=(".build/release/$module.build"/*."$extension")
done
