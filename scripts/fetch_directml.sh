#!/usr/bin/env bash
# Fetches Microsoft's DirectML.dll 1.15.4 (feature level 6.4) for the DirectML backend and prints its path as
# the last line. Source: the npm package onnxruntime-node@1.30.0, which redistributes it at
# package/bin/napi-v6/win32/x64/DirectML.dll. The DLL is a third-party binary: it is cached outside the source
# tree (default ~/.cache/dmltool/directml, override with DMLTOOL_CACHE_DIR) and never committed. Both the npm
# tarball (npm's own sha512 integrity) and the extracted DLL (SHA-256 below) are checked; a mismatch fails.
#   scripts/fetch_directml.sh            # -> /root/.cache/dmltool/directml/1.15.4/DirectML.dll
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/npm_pack.sh"
package="onnxruntime-node@1.30.0"
dll_in_package="package/bin/napi-v6/win32/x64/DirectML.dll"
dll_sha256="${DMLTOOL_DIRECTML_SHA256:-234e8898778cdec88d3cb0539508273494082812c968699f3de665a018971625}"
cache="${DMLTOOL_CACHE_DIR:-$HOME/.cache/dmltool}/directml/1.15.4"
dll="$cache/DirectML.dll"

have_good_dll() {
  [ -f "$dll" ] && [ "$(sha256sum "$dll" | cut -d' ' -f1)" = "$dll_sha256" ]
}

if ! have_good_dll; then
  mkdir -p "$cache"
  work="$(mktemp -d "$cache/fetch.XXXXXX")"
  trap 'rm -rf "$work"' EXIT
  echo "fetching $package (about 113 MB) with npm pack ..." >&2
  npm_pack "$work" "$package"
  tarball="$(ls "$work"/*.tgz)"
  tar -xzf "$tarball" -C "$work" "$dll_in_package"
  got="$(sha256sum "$work/$dll_in_package" | cut -d' ' -f1)"
  if [ "$got" != "$dll_sha256" ]; then
    echo "fetch_directml.sh: $package's $dll_in_package has SHA-256 $got, expected $dll_sha256" >&2
    exit 1
  fi
  mv "$work/$dll_in_package" "$dll"
fi
echo "$dll"
