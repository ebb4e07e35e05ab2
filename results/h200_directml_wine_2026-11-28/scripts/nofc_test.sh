mount --bind /dev/null /usr/lib/x86_64-linux-gnu/libfontconfig.so.1 || exit 9
export WINEPREFIX=/tmp/dmlwine_t/prefix WINESERVER=/tmp/dmlwine_t/wine/usr/lib/wine/wineserver LD_LIBRARY_PATH=/tmp/dmlwine_t/hostlib WINEARCH=win64 WINEDEBUG=err+all,+seh
Xvfb :96 -nolisten tcp >/dev/null 2>&1 & xp=$!; sleep 1; export DISPLAY=:96
timeout 25 /tmp/dmlwine_t/wine/usr/lib/wine/wine64 /tmp/dmlwine_t/win/dmltool.exe list 2>&1 | grep -v '^  ' | grep -v 'trace:seh:[a-z_]*  ' | sort | uniq -c | sort -rn | head -8
$WINESERVER -k; kill $xp
