#!/usr/bin/env bash
# Peer comparison of the kernels in ONE run (issue 12): the same random matrices (3072x768 at N = 1..128
# and sparsity 0.5..0.95, 1536x384 at N = 128) through scipy's CSR @ dense (1 thread), PyTorch's CPU CSR
# (MKL; 1 thread; where torch imports: `pip install --target .bench/py torch`, an ignored folder, skipped
# with one line otherwise), numpy/OpenBLAS dense (1 and 2 threads), EJML's sparse x dense
# (ejml-csc) and sparseprof's kernels at the Vector API's preferred width and again at 256 bits
# with AVX2 instructions only (-XX:UseAVX=2 -Dsparseprof.vectorBits=256: the tiles an AVX2 machine
# gets), then each format's fraction of its roof from the probe's 1-thread L2 bandwidth and FMA peak, probed
# once per width under that width's JVM flags (a 256-bit kernel against 256-bit loads and FMAs), with the
# clock it assumes (the effective FMA clock: fp32 peak / (lanes x 2 FMA ports x 2), BENCH_FMA_PORTS=1 on
# a Zen 4), the roofs in bytes and FLOPs per clock, and each sparse format's cycles per non-zero.
# sparseprof's thread pools are pinned as `measure` pins them (part t on the t-th allowed CPU) and the
# 1-thread peers run under taskset on the same first CPU. Prints the CPU (lscpu model and SIMD flags)
# and the load average before and after: on a shared machine every figure is under contention, so
# quote medians and the load.
# OPENBLAS_CORETYPE / OPENBLAS_L2_SIZE, when this machine sets them, slow a current numpy: they are
# unset for the numpy runs alone, and the OpenBLAS core it then picks is printed.
# Usage: scripts/bench-kernels.sh [WIDTH...]   (default: preferred 256; e.g. `preferred` alone)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
source .ci/java-home.sh
work="$(mktemp -d)"
# BENCH_KERNELS_KEEP=DIR keeps the run's JSON (every side's timings, the probes) in DIR for a later `report`
trap '[[ -n "${BENCH_KERNELS_KEEP:-}" ]] && mkdir -p "$BENCH_KERNELS_KEEP" && cp "$work"/*.json "$BENCH_KERNELS_KEEP"/; rm -rf "$work"' EXIT
widths=("$@")
[[ ${#widths[@]} -gt 0 ]] || widths=(preferred 256)
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
started="$(date -u +%FT%TZ)"

python3 scripts/bench_kernels.py gen "$work"
# the 1-thread peers run on the first CPU this process may use, where sparseprof's 1-thread pool pins
# its thread (WorkerPool.pinned): a VM's vCPUs may run SIMD code at different speeds for minutes
first_cpu="$(python3 -c 'import os; print(min(os.sched_getaffinity(0)))')"
on_first_cpu() { if command -v taskset >/dev/null; then taskset -c "$first_cpu" "$@"; else "$@"; fi; }
OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 on_first_cpu python3 scripts/bench_kernels.py scipy "$work" > "$work/scipy.json"
on_first_cpu env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 python3 scripts/bench_kernels.py numpy "$work" > "$work/numpy1.json"
env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE OMP_NUM_THREADS=2 OPENBLAS_NUM_THREADS=2 python3 scripts/bench_kernels.py numpy "$work" > "$work/numpy2.json"
# the AVX2 peer of the 256-bit column: OpenBLAS's Haswell kernels (what it runs on an AVX2-only CPU)
on_first_cpu env -u OPENBLAS_L2_SIZE OPENBLAS_CORETYPE=Haswell OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 python3 scripts/bench_kernels.py numpy "$work" > "$work/numpy1-avx2.json"
env -u OPENBLAS_L2_SIZE OPENBLAS_CORETYPE=Haswell OMP_NUM_THREADS=2 OPENBLAS_NUM_THREADS=2 python3 scripts/bench_kernels.py numpy "$work" > "$work/numpy2-avx2.json"
torch_path="$here/.bench/py"
OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH="$torch_path${PYTHONPATH:+:$PYTHONPATH}" \
  on_first_cpu python3 scripts/bench_kernels.py torch "$work" > "$work/torch.json" 2> "$work/torch.err" \
  || echo "{\"skipped\": \"torch run failed: $(tail -1 "$work/torch.err" | tr -d '"\\')\"}" > "$work/torch.json"

mvn -q -B -ntp -o test-compile >&2
[[ -f target/bench-classpath.txt && target/bench-classpath.txt -nt pom.xml ]] \
  || mvn -q -B -ntp -o dependency:build-classpath -Dmdep.outputFile=target/bench-classpath.txt >&2
cp="target/classes:target/test-classes:$(cat target/bench-classpath.txt)"
java_run() { "$JAVA_HOME/bin/java" --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED -Xmx3g "$@" 2> >(grep -v '^WARNING: Using incubator modules' >&2); }

for width in "${widths[@]}"; do
  case "$width" in
    preferred) flags=() ;;
    256) flags=(-XX:+IgnoreUnrecognizedVMOptions -XX:UseAVX=2 -Dsparseprof.vectorBits=256) ;;
    *) flags=(-Dsparseprof.vectorBits="$width") ;;
  esac
  # the roof of this width: the probe's loads and FMAs under the same JVM flags (256-bit loads and FMAs
  # under -XX:UseAVX=2), on the CPU where the 1-thread kernels run
  on_first_cpu "$JAVA_HOME/bin/java" --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED -Xmx3g "${flags[@]}" \
    -cp "$cp" dev.sparseprof.bench.KernelRoofProbe 2> >(grep -v '^WARNING: Using incubator modules' >&2) >> "$work/roof.json"
  peers=$([[ "$width" == "${widths[0]}" ]] && echo peers || echo none)  # EJML once: it uses no Vector API
  # one JVM per N, so that the JIT's profile at one N does not shape the code timed at another
  for n in 128 16 1 4 8; do
    java_run "${flags[@]}" -cp "$cp" dev.sparseprof.bench.KernelPeerBench "$work" "$n" "$peers" >> "$work/java.json"
  done
done

# a VM may name its CPU only "AMD EPYC": the x86 family and model tell a Zen 4 (25/17) from a Zen 5 (26/2)
lscpu_field() { lscpu | sed -n "s/^$1: *//p" | head -1; }
echo "machine: $(lscpu_field 'Model name') (x86 family $(lscpu_field 'CPU family'), model $(lscpu_field 'Model')), $(nproc) cpus;" \
  "L1d $(lscpu_field 'L1d cache'), L2 $(lscpu_field 'L2 cache'), L3 $(lscpu_field 'L3 cache');" \
  "SIMD flags: $(grep -o -w -E 'fma|avx2|avx512f|avx512dq|avx512bw|avx512vl|avx512_bf16|avx512_fp16|amx_tile' /proc/cpuinfo | sort -u | tr '\n' ' ')"
echo "run: $started .. $(date -u +%FT%TZ); load average before $load_before, after $(cut -d' ' -f1-3 /proc/loadavg)"
python3 scripts/bench_kernels.py report "$work"
