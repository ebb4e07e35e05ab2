# Diagnostic run for issue 31 (kept in results/): why Wine's processes fail with STATUS_TOO_MANY_OPENED_FILES.
here=$(cd "$(dirname "$0")" && pwd); out=$1; mkdir -p $out
export LD_LIBRARY_PATH=$here/lib
{ echo "ulimit soft $(ulimit -Sn) hard $(ulimit -Hn)"; for f in fs/file-max fs/nr_open fs/file-nr fs/inotify/max_user_instances fs/inotify/max_user_watches; do echo "$f: $(cat /proc/sys/$f)"; done; uname -a; df -h /tmp | tail -1; mount | grep -E ' /tmp | / ' ; } > $out/limits.txt 2>&1
variant() {  # $1 name, $2 soft fd limit (or keep)
  local v=$out/$1; mkdir -p $v
  ( [ "$2" != keep ] && ulimit -Sn $2; export DMLWINE_ROOT=/tmp/dmlwine OUT=$v; cd $here; unset DISPLAY
    . ./wine_env.sh
    echo "soft limit in variant: $(ulimit -Sn)" >> $v/wine_setup.txt
    ws=$(pgrep -n -x wineserver); [ -n "$ws" ] && { grep 'open files' /proc/$ws/limits; ls /proc/$ws/fd | wc -l; } >> $v/wine_setup.txt 2>&1
    WINEDEBUG=err+all,warn+module,+process timeout 20 "$WINE64" explorer.exe /desktop=shell,640x480 >$v/explorer.txt 2>&1 &
    sleep 4
    WINEDEBUG=err+all,warn+module timeout 40 "$WINE64" "$DMLTOOL_EXE" list >$v/list.txt 2>&1; echo "list rc=$?" >> $v/wine_setup.txt
    ws=$(pgrep -n -x wineserver); [ -n "$ws" ] && echo "wineserver fds after: $(ls /proc/$ws/fd | wc -l)" >> $v/wine_setup.txt
    "$WINESERVER" -k; sleep 1; kill $wine_env_xvfb 2>/dev/null; wait 2>/dev/null
    for f in $v/*.txt; do [ $(stat -c %s $f) -gt 200000 ] && { head -c 100000 $f > $f.head; tail -c 50000 $f > $f.tail; rm $f; }; done
  )
}
variant default keep
variant nofile1024 1024
