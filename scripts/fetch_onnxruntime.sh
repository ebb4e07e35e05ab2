#!/usr/bin/env bash
# Fetches ONNX Runtime 1.30.0's CPU build for Linux x64, as its Node.js binding, and prints the node_modules folder
# that holds it as the last line (`NODE_PATH=$(scripts/fetch_onnxruntime.sh | tail -n 1) node -e
# "require('onnxruntime-node')"`). scripts/ort_per_layer.py runs the imported models' layers in it
# (docs/importing-models.md, "Checked against ONNX Runtime").
#
# Source: the npm packages onnxruntime-node@1.30.0 (which ships libonnxruntime.so.1 and onnxruntime_binding.node
# for linux/x64 inside its tarball, at package/bin/napi-v6/linux/x64/) and onnxruntime-common@1.30.0 (the
# JavaScript API it requires; its only runtime dependency). The tarballs are fetched with `npm pack` (which checks
# npm's sha512 integrity) and unpacked here: no `npm install`, so the package's postinstall script (which may
# download CUDA binaries from NuGet) never runs, and nothing is fetched when the binding runs. The two Linux
# binaries are checked against the SHA-256 below. They are third-party binaries: cached outside the source tree
# (default ~/.cache/dmltool/onnxruntime/1.30.0, override with DMLTOOL_CACHE_DIR) and never committed.
#   scripts/fetch_onnxruntime.sh        # -> /root/.cache/dmltool/onnxruntime/1.30.0/node_modules
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/npm_pack.sh"
version=1.30.0
binary_dir="package/bin/napi-v6/linux/x64"
declare -A sha256=(
  [libonnxruntime.so.1]=ffb75a925ba05e47b235bb66e3e3911714a80b328a9c9425539feb204aa32a23
  [onnxruntime_binding.node]=ccdc60b981d93a490cf9513d3f583547252b6e285b72988a96a494f2f006c7b8
)
cache="${DMLTOOL_CACHE_DIR:-$HOME/.cache/dmltool}/onnxruntime/$version"
modules="$cache/node_modules"
bin="$modules/onnxruntime-node/bin/napi-v6/linux/x64"

if [ "$(uname -s)/$(uname -m)" != "Linux/x86_64" ]; then
  echo "fetch_onnxruntime.sh: only the linux/x64 binaries are fetched; this machine is $(uname -s)/$(uname -m)" >&2
  exit 1
fi

have_good_install() {
  [ -f "$modules/onnxruntime-common/package.json" ] && [ -f "$modules/onnxruntime-node/dist/index.js" ] || return 1
  local f
  for f in "${!sha256[@]}"; do
    [ -f "$bin/$f" ] && [ "$(sha256sum "$bin/$f" | cut -d' ' -f1)" = "${sha256[$f]}" ] || return 1
  done
}

if ! have_good_install; then
  mkdir -p "$cache"
  work="$(mktemp -d "$cache/fetch.XXXXXX")"
  trap 'rm -rf "$work"' EXIT
  echo "fetching onnxruntime-node@$version (about 113 MB) and onnxruntime-common@$version with npm pack ..." >&2
  npm_pack "$work" "onnxruntime-node@$version" "onnxruntime-common@$version"
  mkdir -p "$work/node_modules/onnxruntime-node" "$work/node_modules/onnxruntime-common"
  # Only what runs on this machine: the JavaScript, the package manifests and the linux/x64 binaries.
  tar -xzf "$work/onnxruntime-node-$version.tgz" -C "$work/node_modules/onnxruntime-node" --strip-components=1 \
    package/package.json package/dist "$binary_dir"
  tar -xzf "$work/onnxruntime-common-$version.tgz" -C "$work/node_modules/onnxruntime-common" --strip-components=1
  for f in "${!sha256[@]}"; do
    got="$(sha256sum "$work/node_modules/onnxruntime-node/bin/napi-v6/linux/x64/$f" | cut -d' ' -f1)"
    if [ "$got" != "${sha256[$f]}" ]; then
      echo "fetch_onnxruntime.sh: onnxruntime-node@$version's $binary_dir/$f has SHA-256 $got, expected ${sha256[$f]}" >&2
      exit 1
    fi
  done
  rm -rf "$modules"
  mv "$work/node_modules" "$modules"
fi
echo "$modules"
