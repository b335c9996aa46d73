#!/usr/bin/env bash
# Runs one libFuzzer target of tests/fuzz with its seeds, dictionary and regression inputs.
#
#   tests/fuzz/run_fuzzer.sh run TARGET [libFuzzer flags...]   fuzz (e.g. -max_total_time=3600,
#                                                               -runs=1000000, -jobs=2)
#   tests/fuzz/run_fuzzer.sh replay TARGET                     run every regression input and
#                                                               seed once (the ctest test)
#   tests/fuzz/run_fuzzer.sh list                              the targets
#
# TARGET: scene_json, urdf, gmsh, tetgen, vtk, mesh. The fuzzers are built in FUZZ_BUILD_DIR
# (default: build-asan) by .ci/sanitize or by
#   cmake -S . -B build-asan -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang \
#     -DSIM_SANITIZE=address,undefined -DSIM_BUILD_FUZZERS=ON -DSIM_BUILD_APP=OFF
#   cmake --build build-asan --target fuzzers
# The growing corpus and any crash, timeout or leak input land in FUZZ_BUILD_DIR/fuzz/work/TARGET;
# an input that crashed belongs, once fixed, in tests/fuzz/regressions/TARGET/.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
TARGETS=(scene_json urdf gmsh tetgen vtk mesh teleop_recording)
MODE="${1:-}"
if [ "$MODE" = list ]; then
  printf '%s\n' "${TARGETS[@]}"
  exit 0
fi
TARGET="${2:-}"
if [ "$MODE" != run ] && [ "$MODE" != replay ] || [[ ! " ${TARGETS[*]} " =~ " $TARGET " ]]; then
  sed -n '2,10p' "$0" >&2
  exit 2
fi
shift 2
BUILD="${FUZZ_BUILD_DIR:-$ROOT/build-asan}"
FUZZER="$BUILD/fuzz/fuzz_$TARGET"
[ -x "$FUZZER" ] || { echo "run_fuzzer.sh: $FUZZER is not built" >&2; exit 1; }
WORK="$BUILD/fuzz/work/$TARGET"
SEEDS="$WORK/seeds"
REGRESSIONS="$ROOT/tests/fuzz/regressions/$TARGET"
rm -rf "$SEEDS"
mkdir -p "$SEEDS" "$WORK/corpus"

# the seeds: shipped files of the target's format up to 16 KiB (larger ones slow every mutation
# down: the 200 KB sphere pile scene ran 6 inputs a second) and the hand-made ones here
shopt -s nullglob
add_seeds() {
  for f in "$@"; do
    [ -f "$f" ] && [ "$(stat -c %s "$f")" -le 16384 ] && cp "$f" "$SEEDS/$(echo "${f#./}" | tr / _)"
  done
  return 0
}
case "$TARGET" in
  scene_json)
    add_seeds scenes/*.json scenes/validation/*.json bench/scenes/*.json tests/data/*.json \
      tests/fuzz/seeds/scene_json/*
    ;;
  urdf) add_seeds resources/robots/*/*.urdf tests/data/*.urdf ;;
  gmsh) add_seeds tests/data/*.msh resources/meshes/*.msh ;;
  vtk) add_seeds tests/data/*.vtk tests/fuzz/seeds/vtk/* ;;
  mesh) add_seeds tests/fuzz/seeds/mesh/* resources/meshes/grasp/*.obj ;;
  teleop_recording) add_seeds tests/fuzz/seeds/teleop_recording/* ;;
  tetgen)
    add_seeds tests/fuzz/seeds/tetgen/*
    # each .node/.ele pair of the test data as one input: .node, "#ele", .ele
    for node in tests/data/*.node; do
      ele="${node%.node}.ele"
      [ -f "$ele" ] && { cat "$node"; printf '\n#ele\n'; cat "$ele"; } > "$SEEDS/$(basename "${node%.node}").txt"
    done ;;
esac

# the loaders that take a path read each input from a file in $TMPDIR: a tmpfs keeps that off
# the disk (on ext4 with discard, truncating a file per run is ten times slower than the parse)
if [ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then export TMPDIR=/dev/shm; fi
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}"
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$ROOT/cmake/lsan_suppressions.txt}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
# per input: 10 s is a hang (the slowest seed takes well under 1 s); 2 GiB is a memory blow-up.
# scene_json reads scenes with a tiny work budget (scene_json_fuzzer.cpp), so it needs no more.
LIMITS=(-timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=2048)
if [ "$MODE" = replay ]; then
  inputs=("$REGRESSIONS"/* "$SEEDS"/*)
  echo "run_fuzzer.sh: replaying ${#inputs[@]} inputs through fuzz_$TARGET"
  exec "$FUZZER" "${LIMITS[@]}" "${inputs[@]}"
fi
mkdir -p "$REGRESSIONS"
exec "$FUZZER" "${LIMITS[@]}" -dict="tests/fuzz/dict/$TARGET.dict" -print_final_stats=1 \
  -artifact_prefix="$WORK/" "$@" "$WORK/corpus" "$SEEDS" "$REGRESSIONS"
