cd dist/dmltool-gpu
export LD_LIBRARY_PATH=$PWD/lib VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json VKD3D_DEBUG=none VKD3D_SHADER_DEBUG=none DMLTOOL_TUNING_TRACE=1
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/gpu.txt
bin/dmltool_pipeline_stats cases/perf/perf.json --filter 'per_tensor/32x256x14x14' --variants > $OUT/stats.txt 2>&1
run() { name=$1; shift; echo "== $name $*" >> $OUT/exp.txt; env "$@" timeout 120 bin/dmltool bench cases/perf/perf.json --backend gpu --filter 'per_tensor/32x256x14x14' --tuning-cache /tmp/t_$name.json --max-time 0.3 --roofline-mib 0 2>&1 | grep -v "settling\|confirm" | grep "trace:\|Top/s\|error\|ERROR" >> $OUT/exp.txt; }
V='^wino|^float/mt4/cw8/tr14/cg16/s1/wview$|^float/mt8/cw8/tr14/cg8/s1/wview$'
run base EXP_VARIANTS="$V"
run noflush EXP_VARIANTS='^wino' EXP_NOCHECK=1 EXP_WINO_NOFLUSH=1
run nostage EXP_VARIANTS='^wino' EXP_NOCHECK=1 EXP_WINO_NOSTAGE=1
run nogemm EXP_VARIANTS='^wino' EXP_NOCHECK=1 EXP_WINO_NOGEMM=1
run neither EXP_VARIANTS='^wino' EXP_NOCHECK=1 EXP_WINO_NOGEMM=1 EXP_WINO_NOSTAGE=1
run fnostage EXP_VARIANTS='^float/mt4/cw8/tr14/cg16/s1/wview$|^float/mt8/cw8/tr14/cg8/s1/wview$' EXP_NOCHECK=1 EXP_FLOAT_NOSTAGE=1
run fnomad EXP_VARIANTS='^float/mt4/cw8/tr14/cg16/s1/wview$|^float/mt8/cw8/tr14/cg8/s1/wview$' EXP_NOCHECK=1 EXP_FLOAT_NOMAD=1
