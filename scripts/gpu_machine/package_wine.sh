#!/usr/bin/env bash
# Packages the Windows side for the GPU machine (called by package.sh --with-directml): dmltool.exe, Microsoft's
# DirectML.dll, the part of Debian 12's Wine 8.0 that a `dmltool.exe run/bench` loads, a Wine prefix prepared
# here, and an X server (Xvfb) with the few files it needs. Everything goes into OUT/wine.tar.xz (about 20 MB),
# which wine_env.sh unpacks on the machine (into /tmp: the device's working tree is limited to 64 MiB).
#   scripts/gpu_machine/package_wine.sh OUT
# Environment: DMLTOOL_WINDOWS_BUILD_DIR (default build-windows) holds app/dmltool.exe; DirectML.dll comes from
# scripts/fetch_directml.sh (cached outside the tree, never committed).
#
# Why an X server: Wine 8.0's null display driver (HKCU\Software\Wine\Drivers Graphics=null) has no Vulkan, so
# winevulkan refuses to start ("Failed to load Wine graphics driver supporting Vulkan") and CreateDXGIFactory1
# fails with DXGI_ERROR_UNSUPPORTED, whichever wined3d renderer is chosen (tried here, with DISPLAY unset, on
# lavapipe: docs/directml-gpu-machine.md). winex11 over Xvfb is the display path that works.
# Why wined3d's Vulkan renderer (HKCU\Software\Wine\Direct3D renderer=vulkan, set in the prefix): DXGI enumerates
# its adapters through wined3d; with the default OpenGL renderer that needs GLX on the X server, i.e. Mesa's
# software GL in Xvfb (tens of MB more). With the Vulkan renderer wined3d goes through winevulkan -> winex11 ->
# the host's Vulkan loader -> the NVIDIA ICD, which the machine has; Xvfb then only serves windows nobody sees.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="${1:?usage: package_wine.sh OUT}"
winbuild="${DMLTOOL_WINDOWS_BUILD_DIR:-$repo/build-windows}"
exe="$winbuild/app/dmltool.exe"
[ -f "$exe" ] || { echo "package_wine.sh: $exe not found: run scripts/build_windows.sh first" >&2; exit 2; }
dll="$("$repo/scripts/fetch_directml.sh" | tail -n 1)"
wine_bin=/usr/lib/wine
wine_lib=/usr/lib/x86_64-linux-gnu/wine
[ -x "$wine_bin/wine64" ] && [ -x "$wine_bin/wineserver64" ] || {
  echo "package_wine.sh: Debian 12's wine64 is not installed (apt-get install wine64)" >&2; exit 2; }
command -v Xvfb >/dev/null && command -v xkbcomp >/dev/null || {
  echo "package_wine.sh: Xvfb and xkbcomp are needed (apt-get install xvfb x11-xkb-utils)" >&2; exit 2; }

stage="$(mktemp -d "${TMPDIR:-/tmp}/dmltool-wine-pkg.XXXXXX")"
trap 'rm -rf "$stage"' EXIT
root="$stage/dmlwine"
mkdir -p "$root/win" "$root/hostlib" "$root/bin"

# --- Wine: the same relative layout as Debian's (wine64 finds its DLLs and /usr/share/wine relative to itself),
# under our own root, so nothing is unpacked over the machine's /usr.
wroot="$root/wine"
mkdir -p "$wroot/usr/lib/wine" "$wroot/usr/lib/x86_64-linux-gnu/wine/x86_64-windows" \
         "$wroot/usr/lib/x86_64-linux-gnu/wine/x86_64-unix" "$wroot/usr/share"
cp "$wine_bin/wine64" "$wroot/usr/lib/wine/wine64"
# Debian's wineserver is a shell script naming /usr/lib/wine/wineserver64 by absolute path: take the binary
# itself under the name wine64 looks for (wineserver, beside it).
cp "$wine_bin/wineserver64" "$wroot/usr/lib/wine/wineserver"
# The PE modules a prefix set-up (wineboot) and `dmltool.exe run --backend all` / `bench` load, read from
# WINEDEBUG=+loaddll of both on 2026-11-28 (minus dmltool.exe and DirectML.dll). A module missing here makes
# wineboot print an error for it and carry on; one dmltool needs makes its run fail at once (the local test,
# scripts/gpu_machine/test_wine_package.sh, runs the packaged tree).
pe_modules="apisetschema.dll actxprxy.dll advapi32.dll advpack.dll atl100.dll bcrypt.dll combase.dll comctl32.dll comdlg32.dll
  crypt32.dll cryptnet.dll d3d12.dll dnsapi.dll dxgi.dll explorer.exe gdi32.dll imm32.dll iphlpapi.dll
  kernel32.dll kernelbase.dll mountmgr.sys mpr.dll msvcrt.dll newdev.dll nsi.dll nsiproxy.sys ntdll.dll
  ntoskrnl.exe ole32.dll oleaut32.dll opengl32.dll plugplay.exe propsys.dll rpcrt4.dll rpcss.exe rsaenh.dll
  rundll32.exe sechost.dll services.exe setupapi.dll shcore.dll shell32.dll shlwapi.dll start.exe svchost.exe
  ucrtbase.dll urlmon.dll user32.dll userenv.dll uxtheme.dll version.dll vulkan-1.dll wevtsvc.dll win32u.dll
  wineboot.exe wined3d.dll winedevice.exe winevulkan.dll winex11.drv wininet.dll winmm.dll wintrust.dll
  ws2_32.dll zlib1.dll cmd.exe reg.exe conhost.exe regsvr32.exe winemenubuilder.exe winedbg.exe"
for m in $pe_modules; do
  if [ -f "$wine_lib/x86_64-windows/$m" ]; then
    x86_64-w64-mingw32-strip --strip-debug -o "$wroot/usr/lib/x86_64-linux-gnu/wine/x86_64-windows/$m" \
      "$wine_lib/x86_64-windows/$m"
  fi
done
# The Unix halves are small (5 MB): take them all; those whose host libraries are missing fail only when used.
for so in "$wine_lib"/x86_64-unix/*.so "$wine_lib"/x86_64-unix/libwine.so.1*; do
  strip --strip-debug -o "$wroot/usr/lib/x86_64-linux-gnu/wine/x86_64-unix/$(basename "$so")" "$so"
done
cp -r /usr/share/wine "$wroot/usr/share/wine"
rm -rf "$wroot/usr/share/wine/fonts" "$wroot/usr/share/wine/mono" "$wroot/usr/share/wine/gecko"

# --- Host libraries: what Wine's Unix side links or dlopens (winex11: libX11 and extensions; winevulkan: the
# Vulkan loader; ntdll: libunwind; win32u: fontconfig), with everything they link, except glibc (the machine's
# is newer). fontconfig is not optional: without libfontconfig.so.1 Wine 8.0's win32u calls a null function
# pointer during font set-up in every process that loads user32 (seen on the GPU machine, which has none, and
# reproduced here by hiding the library), so no process gets a window station, explorer.exe cannot create the
# desktop ("Cannot get server thread queue", "failed to create desktop window") and every Wine process respawns
# explorer.exe until Xvfb and the wineserver run out of clients and file descriptors.
copy_with_deps() {
  for f in "$@"; do
    cp -L "$f" "$root/hostlib/"
    ldd "$f" | awk '/=> \// {print $3}' | while read -r lib; do
      case "$(basename "$lib")" in
        libc.so.*|libm.so.*|libdl.so.*|libpthread.so.*|librt.so.*|libresolv.so.*|ld-linux*) ;;
        *) cp -L "$lib" "$root/hostlib/" ;;
      esac
    done
  done
}
libdir=/usr/lib/x86_64-linux-gnu
copy_with_deps "$libdir/libunwind.so.8" "$libdir/libX11.so.6" "$libdir/libXext.so.6" "$libdir/libXi.so.6" \
  "$libdir/libXrandr.so.2" "$libdir/libXrender.so.1" "$libdir/libXcursor.so.1" "$libdir/libXfixes.so.3" \
  "$libdir/libXinerama.so.1" "$libdir/libXxf86vm.so.1" "$libdir/libXcomposite.so.1" "$libdir/libvulkan.so.1" \
  "$libdir/libfontconfig.so.1" "$libdir/libfreetype.so.6"
# --- Xvfb and xkbcomp (Xvfb runs xkbcomp at start to build its keymap; without it Xvfb exits) with the XKB data.
copy_with_deps "$(command -v Xvfb)" "$(command -v xkbcomp)"
mv "$root/hostlib/Xvfb" "$root/hostlib/xkbcomp" "$root/bin/"
mkdir -p "$root/share/X11"
cp -r /usr/share/X11/xkb "$root/share/X11/xkb"
strip --strip-unneeded "$root"/hostlib/*.so* "$root"/bin/* 2>/dev/null || true

# --- dmltool.exe and DirectML.dll (side by side: dmltool.exe loads the DirectML.dll next to it).
x86_64-w64-mingw32-strip --strip-debug -o "$root/win/dmltool.exe" "$exe"
cp "$dll" "$root/win/DirectML.dll"

# --- The prefix, made here with the packaged Wine (so it holds exactly what that Wine registers), with
# wined3d's Vulkan renderer.
prefix="$root/prefix"
(
  export WINEPREFIX="$prefix" WINEARCH=win64 WINEDEBUG=-all \
         WINEDLLOVERRIDES="mscoree,mshtml=;winedbg.exe,winemenubuilder.exe=d" \
         WINESERVER="$wroot/usr/lib/wine/wineserver" LD_LIBRARY_PATH="$root/hostlib"
  unset DISPLAY WAYLAND_DISPLAY
  display=""
  for n in $(seq 150 199); do
    [ -e "/tmp/.X11-unix/X$n" ] || [ -e "/tmp/.X$n-lock" ] || { display=":$n"; break; }
  done
  "$root/bin/Xvfb" "$display" -nolisten tcp -screen 0 640x480x24 -xkbdir "$root/share/X11/xkb" \
    >"$stage/xvfb.log" 2>&1 &
  xvfb=$!
  trap 'kill $xvfb 2>/dev/null' EXIT
  for _ in $(seq 50); do [ -e "/tmp/.X11-unix/X${display#:}" ] && break; sleep 0.1; done
  export DISPLAY="$display"
  "$wroot/usr/lib/wine/wine64" wineboot -i </dev/null >"$stage/wineboot.log" 2>&1 || {
    cat "$stage/wineboot.log" "$stage/xvfb.log" >&2; exit 1; }
  "$wroot/usr/lib/wine/wine64" reg add 'HKCU\Software\Wine\Direct3D' /v renderer /d vulkan /f >/dev/null 2>&1
  "$wroot/usr/lib/wine/wineserver" -w
)
# Wine 8.0 needs the modules in system32 (ntdll reads apisetschema.dll there, services.exe and friends are started
# from there: deleting them was tried and gives "could not load kernel32.dll"), and wineboot put byte-identical
# copies of the packaged builtins there. Hard links to the builtins make tar store each file once.
builtin_dir="$wroot/usr/lib/x86_64-linux-gnu/wine/x86_64-windows"
for f in "$prefix/drive_c/windows/system32"/*; do
  b="$builtin_dir/$(basename "$f")"
  if [ -f "$f" ] && [ -f "$b" ] && cmp -s "$f" "$b"; then ln -f "$b" "$f"; fi
done
rm -rf "$prefix/wineserver"
# The prefix's dosdevices links name this machine's paths: z: -> / is all dmltool needs (the machine's
# files by their Unix paths); c: is relative already.
rm -rf "$prefix/dosdevices"
mkdir -p "$prefix/dosdevices"
ln -s ../drive_c "$prefix/dosdevices/c:"
ln -s / "$prefix/dosdevices/z:"
rm -f "$prefix/.dmltool-ready"

tar -C "$stage" -cf - dmlwine | xz -T0 -9 > "$out/wine.tar.xz"
du -sh "$root" "$out/wine.tar.xz"
