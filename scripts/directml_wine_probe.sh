#!/usr/bin/env bash
# Cross-compiles gpu/directml/tools/wine_probe.cpp (MinGW; needs only d3d12 and the DirectML declarations) and runs
# it under Wine with Microsoft's DirectML.dll on Mesa 25's lavapipe: the DirectML docs' DEPTH_TO_SPACE1 example
# must come out right (exit 1 otherwise), and RESAMPLE nearest's index rule is printed per data type.
# DMLTOOL_LAVAPIPE=system runs it on Debian 12's own lavapipe instead (there it fails: gpu/directml/README.md).
#   scripts/directml_wine_probe.sh
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
packages=(g++-mingw-w64-x86-64-posix mingw-w64-x86-64-dev directx-headers-dev wine64 xvfb xauth)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo_cmd=(); [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
dll="$("$repo/scripts/fetch_directml.sh" | tail -n 1)"
out="$repo/build-windows/directml_probe"
mkdir -p "$out"
# gpu/d3d12_platform.h includes DirectX-Headers' <directx/d3d12.h> (Debian's directx-headers-dev); link just
# those folders in, since -I/usr/include would hand Linux headers to the Windows compiler.
mkdir -p "$out/include"
ln -sfn /usr/include/directx "$out/include/directx"
ln -sfn /usr/include/dxguids "$out/include/dxguids"
x86_64-w64-mingw32-g++-posix -std=c++20 -O2 -static -Wall -I"$repo" -isystem "$out/include" \
  "$repo/gpu/directml/tools/wine_probe.cpp" -o "$out/dml_wine_probe.exe" -ld3d12 -ldxguid
if [ "${DMLTOOL_LAVAPIPE:-mesa25}" != system ]; then
  icd="$("$repo/scripts/fetch_lavapipe.sh" | tail -n 1)"
  export VK_ICD_FILENAMES="$icd"
  export LD_LIBRARY_PATH="$(dirname "$icd")/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
export WINEPREFIX="${WINEPREFIX:-$HOME/.cache/dmltool/wine-prefix}" WINEDEBUG="${WINEDEBUG:--all,err+vkd3d}"
export WINEDLLOVERRIDES="mscoree,mshtml=;winedbg.exe=d"  # no Mono/Gecko prompts; a crash exits instead of debugging
windows_dll="Z:$(printf '%s' "$dll" | tr / '\\')"
xvfb-run -a /usr/lib/wine/wine64 "$out/dml_wine_probe.exe" "$windows_dll" 2>&1 | grep -v '^X connection'
exit "${PIPESTATUS[0]}"
