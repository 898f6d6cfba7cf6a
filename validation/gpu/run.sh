#!/usr/bin/env bash
# The device script: run on the GPU machine, builds nothing there, finishes in under 5 minutes.
#   here, once:  scripts/gpu-jlink-runtime.sh        (JRE + jars into validation/gpu/runtime, < 50 MB)
#   device tool: run(command="bash validation/gpu/run.sh", carry=["validation/gpu/runtime"], timeout_s=330)
# It times the project's CUDA kernels (committed PTX, JCuda driver API) on MiniLM-shaped layers and
# GEMM shapes (sparseprof validate --gpu-measure), then profiles one launch of each quick case under
# Nsight Compute (ncu --csv) when ncu is there and can read the counters, and compares ncu's hit rates,
# DRAM bytes and durations with the model (validate --ncu). Measured JSON and logs go
# to validation/gpu/out/ and, when the device tool gives an $OUT folder, to $OUT (what comes back).
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$here"
rt="$here/validation/gpu/runtime"
out="$here/validation/gpu/out"
mkdir -p "$out/ncu-run"
if [[ ! -x "$rt/sparseprof" ]]; then
  echo "run.sh: $rt/sparseprof missing: run scripts/gpu-jlink-runtime.sh on the build machine and carry validation/gpu/runtime" >&2
  exit 2
fi
started=$(date +%s)
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,memory.total --format=csv || true; } > "$out/nvidia-smi.csv" 2>&1
export SPARSEPROF_JAVA_OPTS="-Xmx16g"
# JCuda's driver binding needs the driver's libcuda.so.1; containers keep it in one of these.
export LD_LIBRARY_PATH="/usr/local/nvidia/lib64:/usr/local/nvidia/lib:/usr/lib/x86_64-linux-gnu:/usr/local/cuda/compat:${LD_LIBRARY_PATH:-}"

echo "run.sh: timing the kernels (validate --gpu-measure)"
timeout 170 "$rt/sparseprof" validate --gpu-measure "$out" > "$out/run.log" 2>&1
status=$?
tail -n 40 "$out/run.log"
echo "run.sh: validate --gpu-measure exit $status after $(( $(date +%s) - started )) s"

ncu_bin="$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -n 1 || true)"
if [[ -n "$ncu_bin" && -x "$ncu_bin" ]]; then
  metrics="gpu__time_duration.sum,l1tex__t_sector_hit_rate.pct,lts__t_sector_hit_rate.pct,dram__bytes_read.sum,dram__bytes_write.sum,sm__warps_active.avg.pct_of_peak_sustained_active"
  echo "run.sh: profiling the quick cases with $ncu_bin"
  timeout 120 "$ncu_bin" --csv --target-processes all --metrics "$metrics" \
    "$rt/sparseprof" validate --gpu-measure "$out/ncu-run" --gpu-quick --gpu-reps 1 --gpu-warmup 0 \
    > "$out/ncu.csv" 2> "$out/ncu.log"
  echo "run.sh: ncu exit $? ($(grep -c '"' "$out/ncu.csv" || true) csv lines); last log lines:"
  tail -n 5 "$out/ncu.log"
  echo "run.sh: ncu's metrics against the model (validate --ncu)"
  timeout 30 "$rt/sparseprof" validate --ncu "$out/ncu.csv" --hw h200 --json "$out/ncu-compare.json" 2>&1 | tail -n 8
else
  echo "run.sh: no ncu on this machine; skipped the profile" | tee "$out/ncu.log"
fi

if [[ -n "${OUT:-}" && -d "${OUT:-}" ]]; then
  cp "$out"/gpu-measurements.json "$out"/run.log "$out"/nvidia-smi.csv "$out"/ncu.csv "$out"/ncu.log "$out"/ncu-compare.json "$OUT"/ 2>/dev/null
  [[ -f "$out/ncu-run/gpu-measurements.json" ]] && cp "$out/ncu-run/gpu-measurements.json" "$OUT/ncu-run-gpu-measurements.json"
fi
echo "run.sh: done in $(( $(date +%s) - started )) s"
exit "$status"
