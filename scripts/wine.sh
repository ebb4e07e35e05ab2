#!/usr/bin/env bash
# Runs a Windows program headless under Debian 12's Wine and exits with the program's exit code.
#   scripts/wine.sh PROGRAM.exe [ARGS...]
# It is the CMAKE_CROSSCOMPILING_EMULATOR of cmake/mingw-w64-x86_64.cmake, so CMake's try_run(), ctest and
# gtest_discover_tests() call it for every Windows executable, often several at once.
#
# Why / how:
# - Own prefix: $WINEPREFIX if set, else ${DMLTOOL_CACHE_DIR:-$HOME/.cache/dmltool}/wine-prefix (the one
#   scripts/directml_wine_probe.sh uses). The first call creates it with `wineboot -i` under `xvfb-run -a` (Wine
#   wants a display only for that first set-up); an flock on PREFIX.lock makes concurrent first calls wait for one
#   set-up, and the stamp PREFIX/.dmltool-ready is written only once the set-up finished.
# - WINEDEBUG=-all unless the caller set WINEDEBUG; WINEDLLOVERRIDES disables mscoree/mshtml (no Mono/Gecko
#   install prompts) and winedbg.exe (a crash exits with a code instead of hanging in the debugger); entries the
#   caller puts in WINEDLLOVERRIDES come after ours (later entries win in Wine).
# - Speed: a wineserver (plus Wine's services.exe etc.) is started once per prefix and lingers
#   DMLTOOL_WINESERVER_LINGER seconds (default 60) after its last client, so a ctest run pays Wine's start-up
#   (about a second) once, not per test; it exits by itself, nothing outlives the session for long.
#   `wineserver -k` (WINEPREFIX=...) ends it at once. DMLTOOL_WINESERVER_LINGER=0 starts none (then every call
#   boots Wine's services itself, and a caller reading the program's pipes may wait ~3 s for them to close).
# - The program runs without X (console programs and D3D12 compute do not need a display). Set
#   DMLTOOL_WINE_XVFB=1 to run it inside `xvfb-run -a` anyway (slower: a new X server per call).
# - Paths: Wine maps / to Z:, and the Unix working directory becomes the program's current directory, so relative
#   and absolute Linux paths (/tmp/x.json) work as arguments unchanged. PROGRAM may be a Unix path.
# - stdout/stderr are passed through untouched (no pipe). Note: a MinGW/MSVCRT program's text-mode stdout writes
#   "\r\n" for "\n" (a Windows C runtime behaviour, not Wine's); programs whose output is compared byte-wise
#   should set binary mode (_setmode(_fileno(stdout), _O_BINARY), or link MinGW's binmode.o) or the
#   comparison should drop '\r'. DMLTOOL_WINE_STRIP_CR=1 makes this script strip '\r' before '\n' on stdout
#   (stdout then goes through a filter; stderr stays direct; the exit code is still the program's).
# Exit code: the program's (0-255; Windows codes are truncated to the low byte: a crash with
#   0xC0000005 exits 5, and Wine prints "Unhandled page fault ..." on stderr); 127 if Wine is missing; 126 if the prefix cannot be created.
set -uo pipefail

if [ $# -lt 1 ]; then
  echo "usage: $0 PROGRAM.exe [ARGS...]" >&2
  exit 2
fi

wine="${DMLTOOL_WINE:-}"
if [ -z "$wine" ]; then
  for candidate in /usr/lib/wine/wine64 "$(command -v wine64 2>/dev/null)" "$(command -v wine 2>/dev/null)"; do
    if [ -n "$candidate" ] && [ -x "$candidate" ]; then wine="$candidate"; break; fi
  done
fi
if [ -z "$wine" ]; then
  echo "wine.sh: no Wine found (Debian: apt-get install wine64; binary /usr/lib/wine/wine64)" >&2
  exit 127
fi
wineserver="${DMLTOOL_WINESERVER:-}"
if [ -z "$wineserver" ]; then
  for candidate in "$(dirname "$wine")/wineserver" /usr/lib/wine/wineserver "$(command -v wineserver 2>/dev/null)"; do
    if [ -n "$candidate" ] && [ -x "$candidate" ]; then wineserver="$candidate"; break; fi
  done
fi

export WINEPREFIX="${WINEPREFIX:-${DMLTOOL_CACHE_DIR:-$HOME/.cache/dmltool}/wine-prefix}"
export WINEDEBUG="${WINEDEBUG:--all}"
export WINEDLLOVERRIDES="mscoree,mshtml=;winedbg.exe,winemenubuilder.exe=d${WINEDLLOVERRIDES:+;$WINEDLLOVERRIDES}"
export WINEARCH=win64
export WINESERVER="$wineserver"
unset WINELOADERNOEXEC

mkdir -p "$(dirname "$WINEPREFIX")" || exit 126
exec 9>>"$WINEPREFIX.lock" || exit 126
flock 9
if [ ! -e "$WINEPREFIX/.dmltool-ready" ]; then
  echo "wine.sh: creating Wine prefix $WINEPREFIX (once)" >&2
  if command -v xvfb-run >/dev/null 2>&1; then
    xvfb-run -a "$wine" wineboot -i </dev/null >/dev/null 2>&1 9>&-
  else
    "$wine" wineboot -i </dev/null >/dev/null 2>&1 9>&-
  fi
  status=$?
  "$wineserver" -w >/dev/null 2>&1 9>&-
  if [ "$status" -ne 0 ] || [ ! -d "$WINEPREFIX/drive_c/windows/system32" ]; then
    echo "wine.sh: wineboot failed ($status) for $WINEPREFIX" >&2
    exit 126
  fi
  touch "$WINEPREFIX/.dmltool-ready"
fi
# The lingering wineserver and Wine's own background processes (services.exe, winedevice.exe, ...) are started
# here with stdin/stdout/stderr on /dev/null: started by the program's Wine they would inherit its pipes, and
# ctest / CMake's execute_process would wait for those pipes until the wineserver exits. `wineserver -p` exits 0
# when it started a server and 2 when one already runs for this prefix.
linger="${DMLTOOL_WINESERVER_LINGER:-60}"
if [ "$linger" != 0 ] && [ -n "$wineserver" ]; then
  if "$wineserver" -p"$linger" </dev/null >/dev/null 2>&1 9>&-; then
    "$wine" cmd.exe /c exit 0 </dev/null >/dev/null 2>&1 9>&-
  fi
fi
flock -u 9
exec 9>&-

if [ "${DMLTOOL_WINE_XVFB:-0}" = 1 ]; then
  runner=(xvfb-run -a "$wine")
else
  runner=("$wine")
fi
if [ "${DMLTOOL_WINE_STRIP_CR:-0}" = 1 ]; then
  "${runner[@]}" "$@" | sed 's/\r$//'
  exit "${PIPESTATUS[0]}"
fi
exec "${runner[@]}" "$@"
