#!/usr/bin/env bash
# Installs everything dmltool needs to build, test and regenerate its cases, from Debian 12's packages.
# Idempotent: packages already present are left alone, so a warm machine pays only the dpkg query.
#   scripts/install_deps.sh            the Linux build's packages
#   scripts/install_deps.sh PKG...     these packages instead (scripts/build_windows.sh's list)
set -euo pipefail
packages=(
  cmake ninja-build g++ pkg-config
  libcli11-dev nlohmann-json3-dev directx-headers-dev libbenchmark-dev libgtest-dev libhdf5-dev
  libsqlite3-dev  # bench --results-db and `dmltool history` (optional: without it they say so)
  libonnx-dev libprotobuf-dev  # `dmltool import` (model_import/): ONNX protobuf, checker and shape inference
  libpq-dev postgresql  # --results-db postgresql://... (libpq); the tests start a throwaway server (docs/results-store.md)
  chromium python3-pil  # the HTML report's test opens it headless and checks the screenshot
  libvkd3d-dev libvkd3d-utils1 mesa-vulkan-drivers libvulkan-dev vkd3d-compiler spirv-tools
  libglvnd0 libglx0 libgl1 libegl1 libopengl0  # carried to the GPU machine by scripts/gpu_machine/package.sh
  python3 python3-numpy python3-h5py python3-jsonschema  # jsonschema: ctest schema_validates_cases
  python3-onnx libonnx-testdata  # ONNX backend node tests: scripts/convert_onnx_node_tests*.py, ctest onnx_node_tests*_current
  clang libclang-rt-14-dev llvm-14  # sanitized suite + libFuzzer (runtimes are only Recommended); llvm-symbolizer
)
if (($#)); then packages=("$@"); fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
