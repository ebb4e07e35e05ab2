# Second diagnostic for issue 31: which wineserver request fails when explorer.exe creates its desktop.
here=$(cd "$(dirname "$0")" && pwd); out=$1; mkdir -p $out; cd $here
export LD_LIBRARY_PATH=$here/lib DMLWINE_ROOT=/tmp/dmlwine
unset DISPLAY
. ./wine_env.sh
{ ls -la /dev/shm /tmp /tmp/.X11-unix; ls -la /tmp/.wine-0/* ; id; ps -eo pid,args | grep -E '[X]vfb|[w]ine'; } > $out/env.txt 2>&1
WINEDEBUG=+server,+winstation,+win,err+all timeout 15 "$WINE64" explorer.exe /desktop=shell,640x480 > $out/explorer_server.txt 2>&1
"$WINESERVER" -k; sleep 1
# the same with the null display driver (no X): does the desktop fail too?
kill $wine_env_xvfb; unset DISPLAY
WINEDEBUG=err+all,+winstation timeout 15 "$WINE64" explorer.exe /desktop=shell,640x480 > $out/explorer_nodisplay.txt 2>&1
"$WINESERVER" -k
for f in $out/*.txt; do [ $(stat -c %s $f) -gt 3000000 ] && { head -c 3000000 $f > $f.head; rm $f; }; done
cp $out/../xvfb.log $out/ 2>/dev/null; cp /tmp/diag2/xvfb.log $out/ 2>/dev/null
