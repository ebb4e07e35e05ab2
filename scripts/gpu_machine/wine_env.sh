# Sourced by run.sh (directml, all, wine-bench): unpacks wine.tar.xz (package_wine.sh) and sets up the Wine
# that runs dmltool.exe and DirectML.dll on this machine. Defines WINE64, DMLTOOL_EXE and wine_run (runs
# dmltool.exe with its arguments under Wine). Logs (Xvfb's, the first Wine start's) go to $out/wine_setup.txt.
# Expects $here (the package) and $out; VK_DRIVER_FILES already chosen by run.sh.
#
# Why each step:
# - Unpacked into DMLWINE_ROOT (default /tmp/dmlwine), not over /: an earlier probe that unpacked Wine over the
#   machine's / failed in a cascade ("could not load kernel32.dll"); under its own root wine64 finds its DLLs and
#   data relative to itself, and nothing of the machine changes.
# - Xvfb (carried, with xkbcomp and the XKB data) must really serve the display before Wine starts: Wine 8.0's
#   null display driver has no Vulkan, so winex11 over X is the only display path to DXGI (package_wine.sh).
#   The run waits for the socket and checks the process is still alive, and keeps Xvfb's log.
# - xkbcomp: Xvfb calls it from its compiled-in directory (/usr/bin); it is linked there only when missing.
# - The prefix was made by package_wine.sh with wined3d's Vulkan renderer, so no wineboot runs here; a
#   wineserver is started once (and `wineboot` checks the prefix once, alone) before any real run, so that
#   parallel first starts do not each try to set the prefix up.
wine_env_root="${DMLWINE_ROOT:-/tmp/dmlwine}"
wine_env_log="$out/wine_setup.txt"
: >"$wine_env_log"
if [ ! -x "$wine_env_root/wine/usr/lib/wine/wine64" ]; then
  mkdir -p "$(dirname "$wine_env_root")"
  tar -C "$(dirname "$wine_env_root")" -xJf "$here/wine.tar.xz"
  [ "$(basename "$wine_env_root")" = dmlwine ] || mv "$(dirname "$wine_env_root")/dmlwine" "$wine_env_root"
fi
WINE64="$wine_env_root/wine/usr/lib/wine/wine64"
DMLTOOL_EXE="$wine_env_root/win/dmltool.exe"
export WINEPREFIX="$wine_env_root/prefix" WINEARCH=win64 WINEDEBUG="${WINEDEBUG:--all}"
export WINESERVER="$wine_env_root/wine/usr/lib/wine/wineserver"
export WINEDLLOVERRIDES="mscoree,mshtml=;winedbg.exe,winemenubuilder.exe=d"
# Wine's Unix side (winex11's libX11, winevulkan's libvulkan.so.1) from the package, then the Linux package's
# lib/ (the GL dispatch libraries NVIDIA's Vulkan ICD needs).
export LD_LIBRARY_PATH="$wine_env_root/hostlib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# vkd3d's virtual heaps (descriptor indexing) instead of descriptor tables in push constants: DirectML's
# QUANTIZED_LINEAR_CONVOLUTION root signature needs 260 bytes of them, NVIDIA allows 256, and with the default
# Wine 8.0's vkd3d logs "Push constants size 260 exceeds maximum allowed size 256. Try VKD3D_CONFIG=virtual_heaps"
# and the GPU work never finishes (the H200, 2026-11-28: results/h200_directml_vs_dmltool_2026-11-28/). With
# virtual heaps the whole suite passes there. VKD3D_CONFIG set by the caller wins (VKD3D_CONFIG= for the default).
export VKD3D_CONFIG="${VKD3D_CONFIG-virtual_heaps}"
# Debian 12's Vulkan loader reads VK_ICD_FILENAMES; newer loaders VK_DRIVER_FILES: give both.
[ -n "${VK_DRIVER_FILES:-}" ] && export VK_ICD_FILENAMES="$VK_DRIVER_FILES"
ulimit -n 65536 2>/dev/null || true
[ -x /usr/bin/xkbcomp ] || ln -sf "$wine_env_root/bin/xkbcomp" /usr/bin/xkbcomp 2>>"$wine_env_log" || true
if [ -z "${DISPLAY:-}" ]; then
  for wine_env_display in $(seq 90 99); do
    [ -e "/tmp/.X11-unix/X$wine_env_display" ] || [ -e "/tmp/.X$wine_env_display-lock" ] || break
  done
  mkdir -p /tmp/.X11-unix && chmod 1777 /tmp/.X11-unix
  "$wine_env_root/bin/Xvfb" ":$wine_env_display" -nolisten tcp -screen 0 640x480x24 \
    -xkbdir "$wine_env_root/share/X11/xkb" >"$out/xvfb.log" 2>&1 &
  wine_env_xvfb=$!
  for _ in $(seq 100); do [ -e "/tmp/.X11-unix/X$wine_env_display" ] && break; sleep 0.1; done
  if ! kill -0 "$wine_env_xvfb" 2>/dev/null || [ ! -e "/tmp/.X11-unix/X$wine_env_display" ]; then
    echo "wine_env.sh: Xvfb :$wine_env_display did not start (log below)" | tee -a "$wine_env_log" >&2
    cat "$out/xvfb.log" >>"$wine_env_log"
  fi
  export DISPLAY=":$wine_env_display"
fi
{
  echo "DISPLAY=$DISPLAY WINEPREFIX=$WINEPREFIX VK_DRIVER_FILES=${VK_DRIVER_FILES:-<unset>} VKD3D_CONFIG=$VKD3D_CONFIG"
  "$WINESERVER" -p60 && echo "wineserver started"
  # One Wine start alone (it also starts Wine's services and the desktop explorer.exe), timed.
  wine_env_t0=$(date +%s%N)
  timeout 120 "$WINE64" cmd.exe /c exit 0 </dev/null
  echo "first Wine start: rc=$? in $(( ($(date +%s%N) - wine_env_t0) / 1000000 )) ms"
} >>"$wine_env_log" 2>&1
wine_run() { "$WINE64" "$DMLTOOL_EXE" "$@" </dev/null; }
