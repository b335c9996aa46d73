#!/usr/bin/env bash
# Contact Studio setup: installs the Debian 12 packages the build and tests need (skipping what is
# installed), configures and builds, then optionally launches the studio or runs the tests.
#
#   bash setup.sh           install + build
#   bash setup.sh studio    install + build + open the studio on scenes/default.json
#                           (no display: renders the scene headless to a PNG instead, and says so)
#   bash setup.sh test      install + build + run the whole test suite (ctest)
#
# Environment: BUILD_DIR (default: build), BUILD_TYPE (default: Release), JOBS (default: nproc).
# CUDA is not a Debian package: the CUDA backend is built when nvcc is found (PATH or
# /usr/local/cuda/bin); without it the CPU-only stub is built.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")"
MODE="${1:-build}"
BUILD_DIR="${BUILD_DIR:-build}"
BUILD_TYPE="${BUILD_TYPE:-Release}"
JOBS="${JOBS:-$(nproc)}"
# ccache keys on paths relative to the checkout, so a fresh clone (as in CI) reuses the cache
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}"

case "$MODE" in
  build|studio|test) ;;
  -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
  *) echo "setup.sh: unknown mode '$MODE' (expected: build, studio, test)" >&2; exit 2 ;;
esac

# the toolchain (clang and its sanitizer and libFuzzer runtimes for .ci/sanitize), libraries, and
# what the tests run (Xvfb, lavapipe, fonts for Qt under Xvfb)
PACKAGES=(
  build-essential cmake ninja-build pkg-config ccache clang-format
  clang libclang-rt-14-dev
  qt6-base-dev qt6-charts-dev libqt6opengl6-dev qt6-qpa-plugins libgl-dev
  libvulkan-dev vulkan-tools glslc mesa-vulkan-drivers
  libimgui-dev
  libeigen3-dev rapidjson-dev libcli11-dev libpng-dev libjpeg62-turbo-dev libmeshoptimizer-dev
  libassimp-dev libqhull-dev libtbb-dev liburdfdom-dev libtinyxml2-dev
  libgtest-dev libgmock-dev libtet1.5-dev
  libsdl2-dev libspnav-dev libhdf5-dev
  libavcodec-dev libavformat-dev libavutil-dev libswscale-dev
  xvfb xauth fonts-dejavu-core libxkbcommon-x11-0
)

install_packages() {
  local missing=()
  for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ "${#missing[@]}" -eq 0 ]; then
    echo "setup: all ${#PACKAGES[@]} Debian packages already installed"
    return
  fi
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "setup: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
    sudo="sudo"
  fi
  echo "setup: installing ${#missing[@]} Debian packages: ${missing[*]}"
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -q
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
}

build() {
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE="$BUILD_TYPE"
  cmake --build "$BUILD_DIR" -j "$JOBS"
}

launch_studio() {
  if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
    local out="$BUILD_DIR/default_scene.png"
    echo "setup: no display (DISPLAY and WAYLAND_DISPLAY are unset), so the studio window cannot"
    echo "setup: open here. Rendering the default scene headless instead, with the same renderer:"
    "$BUILD_DIR/bin/contact-sim" render scenes/default.json --out "$out"
    echo "setup: wrote $out. Run 'bash setup.sh studio' from a desktop session to open the studio."
    return
  fi
  exec "$BUILD_DIR/bin/contact-studio" scenes/default.json
}

install_packages
build
case "$MODE" in
  studio) launch_studio ;;
  test) ctest --test-dir "$BUILD_DIR" --output-on-failure --timeout 600 -j "$JOBS" ;;
  build) echo "setup: built into $BUILD_DIR/bin" ;;
esac
