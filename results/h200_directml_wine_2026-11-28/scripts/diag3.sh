# Third diagnostic for issue 31: variants of the environment; the first that lists the GPU runs the suite.
here=$(cd "$(dirname "$0")" && pwd); out=$1; mkdir -p $out; cd $here
export LD_LIBRARY_PATH=$here/lib DMLWINE_ROOT=/tmp/dmlwine
unset DISPLAY
. ./wine_env.sh
"$WINESERVER" -k; sleep 1
variant() {  # name, then a command prefix
  local name=$1; shift
  env "$@" WINEDEBUG=err+all,+seh,warn+font timeout 40 "$WINE64" "$DMLTOOL_EXE" list </dev/null >$out/list_$name.txt 2>&1
  echo "$name rc=$?" >> $out/variants.txt
  "$WINESERVER" -k; sleep 1
  head -c 300000 $out/list_$name.txt > $out/l; mv $out/l $out/list_$name.txt
  grep -q '^DirectML: directml' $out/list_$name.txt
}
ok=""
variant base && ok=base
[ -z "$ok" ] && variant nolcall -u LC_ALL LANG=C.UTF-8 && ok=nolcall
[ -z "$ok" ] && variant cpus2 taskset -c 0-1 && ok=cpus2
[ -z "$ok" ] && variant nolc_cpus2 -u LC_ALL LANG=C.UTF-8 taskset -c 0-1 && ok=nolc_cpus2
echo "working variant: ${ok:-none}" >> $out/variants.txt
cat $out/variants.txt
if [ -n "$ok" ]; then
  case $ok in base) pre=() ;; nolcall) pre=(-u LC_ALL LANG=C.UTF-8) ;; cpus2) pre=(taskset -c 0-1) ;; *) pre=(-u LC_ALL LANG=C.UTF-8 taskset -c 0-1) ;; esac
  env "${pre[@]}" timeout 200 "$WINE64" "$DMLTOOL_EXE" run cases/*.json --backend all --junit $out/wine_junit.xml --json $out/wine_run.json </dev/null >$out/wine_run.txt 2>&1; echo "run rc=$?" >> $out/variants.txt
  tail -3 $out/wine_run.txt
  env "${pre[@]}" timeout 150 "$WINE64" "$DMLTOOL_EXE" bench cases/perf/perf.json --backend directml --max-time 0.3 --benchmark_out=$out/directml_bench.json --benchmark_out_format=json --report-json $out/directml_report.json </dev/null >$out/directml_bench.txt 2>&1; echo "bench rc=$?" >> $out/variants.txt
  tail -5 $out/directml_bench.txt
fi
"$WINESERVER" -k
