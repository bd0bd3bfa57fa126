# shellcheck shell=bash
# Shared by scripts/test and scripts/demo: install missing Debian packages, then configure and build build/.
#
# Source it from the repository root. Knobs (environment):
#   FUSEJIT_BUILD_DIR   build directory (default: build)
#   FUSEJIT_JOBS        parallel build jobs (default: 2)
#   FUSEJIT_CMAKE_ARGS  extra arguments for the configure step, e.g. "-DFUSEJIT_WITH_LLVM=ON"
#   FUSEJIT_BUILD_TARGETS  build only these targets (space-separated; default: all)
#   FUSEJIT_CCACHE      0: do not compile through ccache (default: through it when installed)

# What the library and its examples need (./scripts/demo); ccache lets a rebuild, another clone
# and the package tests' nested builds of the library compile each file once.
FUSEJIT_DEBIAN_PACKAGES=(
  llvm-19-dev libzstd-dev libeigen3-dev libxsimd-dev libxxhash-dev cmake g++ ccache
  libopenmpi-dev openmpi-bin  # MPI: pmap across processes, and its tests under mpiexec
)
# What ./scripts/docs needs, Doxygen for the API reference; the tests check it too (docs.reference).
FUSEJIT_DOCS_PACKAGES=(doxygen)
# What ./scripts/test adds: the test framework and the benchmarks' (bench_smoke runs each), and
# the docs' packages (the ctest entry docs.reference runs Doxygen).
FUSEJIT_TEST_PACKAGES=(doctest-dev libbenchmark-dev python3  # python3: the timing table
  "${FUSEJIT_DOCS_PACKAGES[@]}")
# What ./scripts/test --full adds: Conan from PyPI in a venv (the package.conan tests), and
# jsonschema to check the vcpkg port's manifest.
FUSEJIT_FULL_TIER_PACKAGES=(python3-venv python3-jsonschema)
FUSEJIT_BUILD_DIR="${FUSEJIT_BUILD_DIR:-build}"
FUSEJIT_JOBS="${FUSEJIT_JOBS:-2}"

fusejit_log() { printf '[fusejit] %s\n' "$*" >&2; }

# Installs whichever of FUSEJIT_DEBIAN_PACKAGES is missing; does nothing when all are present.
fusejit_install_missing_packages() {
  if ! command -v dpkg-query >/dev/null 2>&1; then
    fusejit_log "dpkg-query not found (not Debian?): skipping the package check"
    return 0
  fi
  local pkg status missing=()
  for pkg in "${FUSEJIT_DEBIAN_PACKAGES[@]}"; do
    # Same test as `dpkg-query -W -f='${Status}' pkg | grep -q "install ok installed"`,
    # without a pipe that pipefail could trip over.
    status="$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)"
    if [[ "$status" != *"install ok installed"* ]]; then
      missing+=("$pkg")
    fi
  done
  if ((${#missing[@]} == 0)); then
    return 0
  fi

  fusejit_log "installing missing packages: ${missing[*]}"
  local sudo=()
  if [[ "$(id -u)" -ne 0 ]]; then
    if command -v sudo >/dev/null 2>&1; then
      sudo=(sudo)
    else
      fusejit_log "not root and no sudo: install these yourself: ${missing[*]}"
      return 1
    fi
  fi
  "${sudo[@]}" apt-get update
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y --no-install-recommends "${missing[@]}"
}

# Configures (Ninja when available, Release) and builds FUSEJIT_BUILD_DIR.
fusejit_configure_and_build() {
  local args=(-S . -B "$FUSEJIT_BUILD_DIR" -DCMAKE_BUILD_TYPE=Release)
  # An existing build dir keeps its generator: CMake refuses to switch generators in place.
  if [[ ! -f "$FUSEJIT_BUILD_DIR/CMakeCache.txt" ]] && command -v ninja >/dev/null 2>&1; then
    args+=(-G Ninja)
  fi
  if [[ -n "${FUSEJIT_CMAKE_ARGS:-}" ]]; then
    local extra
    read -r -a extra <<<"$FUSEJIT_CMAKE_ARGS"
    args+=("${extra[@]}")
  fi
  # ccache (in the package list) when present: builds that compile a file alike share it (the
  # LLVM 22 build's test files are the default build's), and a second run of this script on the
  # same machine compiles little. FUSEJIT_CCACHE=0 turns it off. The base dir makes
  # the cached paths relative to the checkout, so another clone of the same sources hits too.
  if [[ "${FUSEJIT_CCACHE:-1}" != 0 ]] && command -v ccache >/dev/null 2>&1; then
    args+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  fi
  cmake "${args[@]}"
  local targets=()
  if [[ -n "${FUSEJIT_BUILD_TARGETS:-}" ]]; then
    read -r -a targets <<<"$FUSEJIT_BUILD_TARGETS"
    targets=(--target "${targets[@]}")
  fi
  CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}" CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-1}" \
    cmake --build "$FUSEJIT_BUILD_DIR" -j"$FUSEJIT_JOBS" "${targets[@]}"
}

fusejit_setup() {
  fusejit_install_missing_packages
  fusejit_configure_and_build
}
