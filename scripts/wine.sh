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
# - The program runs without X (console programs do not need a display; D3D12/DirectML compute should not either,
#   but that is not verified here). Set DMLTOOL_WINE_XVFB=1 to run it inside `xvfb-run -a` (slower: a new X server
#   per call, ~0.5 s more).
# - Paths: Wine maps / to Z:, and the Unix working directory becomes the program's current directory, so relative
#   and absolute Linux paths (/tmp/x.json) work as arguments unchanged. PROGRAM may be a Unix path.
# - stdout/stderr: passed through untouched when they are terminals or files; when either is a pipe or socket the
#   program writes to temporary files that are copied out after it exits (why: see the comment at the end).
#   A MinGW/MSVCRT program's text-mode stdout writes "\r\n" for "\n" (a Windows C runtime behaviour, not Wine's);
#   programs whose output is compared byte-wise should set binary mode (_setmode(_fileno(stdout), _O_BINARY) at
#   start-up: verified; linking MinGW's binmode.o does NOT change stdout, verified) or the comparison should drop
#   '\r'. DMLTOOL_WINE_STRIP_CR=1 makes this script strip '\r' before '\n' on stdout (and on stderr when both are
#   the same pipe; otherwise stderr keeps its "\r\n"; the exit code is still the program's).
# Exit code: the program's (0-255; Windows codes are truncated to the low byte: a crash with 0xC0000005 exits 5,
#   and Wine prints "Unhandled page fault ..." on stderr); 127 if Wine is missing; 126 if the prefix cannot be
#   created; Wine's own code (e.g. 53) if PROGRAM does not exist.
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

# Runs a command with every file descriptor above 2 closed: the lingering wineserver and Wine's services must not
# keep a caller's pipes or lock files (e.g. an flock held by a build script) open for the linger time.
without_extra_fds() {
  (
    for fd in /proc/self/fd/*; do
      fd="${fd##*/}"
      if [ "$fd" -gt 2 ] 2>/dev/null; then eval "exec $fd>&-" 2>/dev/null; fi
    done
    exec "$@"
  )
}

mkdir -p "$(dirname "$WINEPREFIX")" || exit 126
exec 9>>"$WINEPREFIX.lock" || exit 126
flock 9
if [ ! -e "$WINEPREFIX/.dmltool-ready" ]; then
  echo "wine.sh: creating Wine prefix $WINEPREFIX (once)" >&2
  if command -v xvfb-run >/dev/null 2>&1; then
    without_extra_fds xvfb-run -a "$wine" wineboot -i </dev/null >/dev/null 2>&1
  else
    without_extra_fds "$wine" wineboot -i </dev/null >/dev/null 2>&1
  fi
  status=$?
  without_extra_fds "$wineserver" -w </dev/null >/dev/null 2>&1
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
  if without_extra_fds "$wineserver" -p"$linger" </dev/null >/dev/null 2>&1; then
    without_extra_fds "$wine" cmd.exe /c exit 0 </dev/null >/dev/null 2>&1
  fi
fi
flock -u 9
exec 9>&-

if [ "${DMLTOOL_WINE_XVFB:-0}" = 1 ]; then
  runner=(xvfb-run -a "$wine")
else
  runner=("$wine")
fi
strip_cr() { if [ "${DMLTOOL_WINE_STRIP_CR:-0}" = 1 ]; then sed 's/\r$//'; else cat; fi; }

# A caller that reads the program's output through a pipe (ctest, CMake's execute_process, Python's subprocess)
# waits for every writer of that pipe to close it, and a Wine program can hand its stdout/stderr to processes
# that outlive it: when Wine's services (services.exe, winedevice.exe, ...) are not running, the program's Wine
# starts them, and they inherit its Unix file descriptors. They stop only once no Windows program of the prefix
# is left, so under `ctest -j` (always another program running) the caller waited for minutes after the program
# had exited: seen as timeouts of random CLI tests under Wine (a zombie dmltool.exe, its caller blocked on the
# pipe). So with a pipe or socket on stdout/stderr the program writes to temporary files, which this script copies
# to its own stdout/stderr once the program has exited (one file when both are the same pipe, so that their
# interleaving is kept). Output then arrives at the end instead of streaming; terminals and files are unaffected.
is_pipe_or_socket() { [ -p "/dev/fd/$1" ] || [ -S "/dev/fd/$1" ]; }
if ! is_pipe_or_socket 1 && ! is_pipe_or_socket 2; then
  if [ "${DMLTOOL_WINE_STRIP_CR:-0}" = 1 ]; then
    "${runner[@]}" "$@" | strip_cr
    exit "${PIPESTATUS[0]}"
  fi
  exec "${runner[@]}" "$@"
fi
relay_dir=$(mktemp -d "${TMPDIR:-/tmp}/dmltool-wine.XXXXXX") || exit 126
trap 'rm -rf "$relay_dir"' EXIT
# The program runs as a background job so that a TERM/INT sent to this script (a caller's timeout) reaches it;
# its stdin is passed explicitly (a background job's default stdin is /dev/null).
exec 3<&0
if [ "$(readlink "/proc/$$/fd/1")" = "$(readlink "/proc/$$/fd/2")" ]; then
  "${runner[@]}" "$@" <&3 >"$relay_dir/out" 2>&1 &
else
  "${runner[@]}" "$@" <&3 >"$relay_dir/out" 2>"$relay_dir/err" &
fi
program=$!
exec 3<&-
# A trapped signal makes `wait` return early: wait again until the program has ended (its status is kept even
# when it ended meanwhile). A flag, not `kill -0`: once reaped, the program's PID may belong to another process.
trap 'interrupted=1; kill -TERM "$program" 2>/dev/null' TERM INT
while :; do
  interrupted=0
  rc=0
  wait "$program" || rc=$?
  [ "$interrupted" = 1 ] || break
done
strip_cr <"$relay_dir/out"
if [ -e "$relay_dir/err" ]; then cat "$relay_dir/err" >&2; fi
exit "$rc"
