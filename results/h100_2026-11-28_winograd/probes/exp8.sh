cd dist/dmltool-gpu
export LD_LIBRARY_PATH=$PWD/lib VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json VKD3D_DEBUG=none VKD3D_SHADER_DEBUG=none DMLTOOL_TUNING_TRACE=1
for round in 1; do for bin in dmltool dmltool_nowarp; do for f in per_tensor/32x256x14x14 per_tensor/32x64x56x56 per_tensor/32x512x7x7; do
echo "== $bin.$round $f" >> $OUT/exp.txt
timeout 150 bin/$bin bench cases/perf/perf.json --backend gpu --filter "$f" --tuning-cache /tmp/t_$RANDOM.json --max-time 0.2 --roofline-mib 0 2>&1 | grep -v "settling" | grep "trace: wino\|trace: heur\|error\|ERROR" | sort | uniq >> $OUT/exp.txt
done; done; done
