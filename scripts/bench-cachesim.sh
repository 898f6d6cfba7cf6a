#!/usr/bin/env bash
# sparseprof cachesim beside Dinero IV, whole process (JVM start included), in one run: each case
# alternates the two RUNS times (default 5; the mixed case MIXED_RUNS, default 3) and prints both
# medians and their ratio, with the load
# average before and after. Nothing is built or written into the repository but the project's own
# build (target/, by the launcher); traces go to BENCH_DIR (default ${TMPDIR:-/tmp}/sparseprof-bench).
#
# Cases (generated once, then reused):
#   spmm   - the scalar stream of row-wise CSR SpMM on a 4096x4096 matrix at 5% density (205 nonzeros
#            a row), N = 8: 21.8 M accesses, din text; three LRU levels 32k/8w, 1m/16w, 32m/16w
#   kernel - `./sparseprof trace` of the csr kernel on a random 4096x4096 layer pruned to 5% density,
#            N = 8 (its B and C accesses are 32-byte vectors: 2.5 M records), the same three levels
#   mixed  - 20 M accesses (MIXED_N): 60% a streaming pointer (4-byte steps), 40% uniform over
#            64 MiB, 30% writes, the same three levels
#   short  - the 200,000-access mixed-random trace of the test data (din.gz), two levels 32k/8w, 256k/8w
#   start  - `./sparseprof --version` and `--help`, median of 10, beside `java -version`
# Then, when the test classes are built (`mvn test-compile`), the in-process rate
# `CacheSimCpuRate spmm push` (CPU-time median of 5, see docs/memsim.md).
#
# Dinero IV: DINERO=path/to/dineroIV, else `dineroIV` on PATH; its source is not part of this
# repository (build it elsewhere). Without it only sparseprof's figures are printed.
# Usage: scripts/bench-cachesim.sh [CASE...]   (default: start short spmm mixed kernel inproc)
# All cases take ~6 min on 2 vCPUs (mixed alone ~3: Dinero IV runs 20 M random accesses in ~45 s);
# under /work/bin/quiet's 7-minute hold run them as two: `start short spmm kernel inproc`, then `mixed`.
# The first cachesim run of each case is untimed: after a build it trains the launcher's AOT cache.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
repo="$PWD"
work="${BENCH_DIR:-${TMPDIR:-/tmp}/sparseprof-bench}"
runs="${RUNS:-5}"
mixed_runs="${MIXED_RUNS:-3}" # Dinero IV takes ~20-45 s a run there
mixed_n="${MIXED_N:-20000000}"
dinero="${DINERO:-$(command -v dineroIV || true)}"
cases=("$@")
(( ${#cases[@]} )) || cases=(start short spmm mixed kernel inproc)
mkdir -p "$work"
source .ci/java-home.sh
./sparseprof --version >/dev/null # builds when needed, before anything is timed

load() { cut -d' ' -f1-3 /proc/loadavg; }
# "WALL CPU" seconds of one run of "$@" (output discarded); CPU is user + system of the process and
# its children, the figure that moves less with other work on the machine
measure() {
  local TIMEFORMAT='%R %U %S' t
  t=$( { time "$@" >/dev/null 2>&1; } 2>&1 ) || { echo "failed: $*" >&2; return 1; }
  awk '{ printf "%.3f %.3f", $1, $2 + $3 }' <<<"$t"
}
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

gen_java="$work/GenBenchInputs.java"
cat >"$gen_java" <<'EOF'
import java.io.*;
import java.nio.*;
import java.nio.channels.FileChannel;
import java.nio.file.*;
import java.util.SplittableRandom;

/** The benchmark's inputs: a dense 4096x4096 f32 safetensors layer, or the mixed-random din trace. */
public class GenBenchInputs {
    public static void main(String[] a) throws IOException {
        SplittableRandom r = new SplittableRandom(7);
        if (a[0].equals("layer")) {
            int n = 4096;
            String header = "{\"layer.weight\":{\"dtype\":\"F32\",\"shape\":[" + n + "," + n + "],\"data_offsets\":[0," + (4L * n * n) + "]}}";
            while ((header.length() + 8) % 8 != 0) header += " ";
            try (FileChannel ch = FileChannel.open(Path.of(a[1]), StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
                ByteBuffer h = ByteBuffer.allocate(8 + header.length()).order(ByteOrder.LITTLE_ENDIAN);
                h.putLong(header.length()).put(header.getBytes("US-ASCII")).flip();
                ch.write(h);
                ByteBuffer row = ByteBuffer.allocate(4 * n).order(ByteOrder.LITTLE_ENDIAN);
                for (int i = 0; i < n; i++) {
                    row.clear();
                    for (int j = 0; j < n; j++) row.putFloat((float) (r.nextDouble() * 2 - 1));
                    row.flip();
                    ch.write(row);
                }
            }
        } else if (a[0].equals("spmm")) {
            // row-wise CSR SpMM, scalar: rowptr[i], rowptr[i+1]; per nonzero colidx, value, then for
            // each of N columns B[col][x] read, C[i][x] read and written (26 accesses a nonzero at N = 8)
            int rows = 4096, perRow = (int) Math.round(0.05 * 4096), n = 8;
            try (Writer out = new BufferedWriter(new FileWriter(a[1]), 1 << 20)) {
                int j = 0;
                for (int i = 0; i < rows; i++) {
                    line(out, 0, 0x10000000L + 4L * i);
                    line(out, 0, 0x10000000L + 4L * (i + 1));
                    for (int k = 0; k < perRow; k++, j++) {
                        int col = r.nextInt(4096);
                        line(out, 0, 0x20000000L + 4L * j);
                        line(out, 0, 0x30000000L + 4L * j);
                        for (int x = 0; x < n; x++) {
                            line(out, 0, 0x40000000L + 4L * ((long) col * n + x));
                            line(out, 0, 0x50000000L + 4L * ((long) i * n + x));
                            line(out, 1, 0x50000000L + 4L * ((long) i * n + x));
                        }
                    }
                }
            }
        } else {
            long count = Long.parseLong(a[2]);
            long stream = 0x10000000L, uniform = 0x20000000L, span = 64L << 20;
            try (OutputStream out = new BufferedOutputStream(new FileOutputStream(a[1]), 1 << 20)) {
                StringBuilder b = new StringBuilder(32);
                for (long i = 0; i < count; i++) {
                    long address;
                    if (r.nextDouble() < 0.6) {
                        address = stream;
                        stream = 0x10000000L + ((stream - 0x10000000L + 4) % span);
                    } else {
                        address = uniform + 4 * r.nextLong(span / 4);
                    }
                    b.setLength(0);
                    b.append(r.nextDouble() < 0.3 ? '1' : '0').append(' ').append(Long.toHexString(address)).append('\n');
                    for (int k = 0; k < b.length(); k++) out.write(b.charAt(k));
                }
            }
        }
    }

    static void line(Writer out, int label, long address) throws IOException {
        out.write(label == 0 ? "0 " : "1 ");
        out.write(Long.toHexString(address));
        out.write('\n');
    }
}
EOF

three=(--level L1:32k:8:64 --level L2:1m:16:64 --level L3:32m:16:64)
dinero_three="-informat d -l1-dsize 32k -l1-dbsize 64 -l1-dassoc 8 -l1-drepl l -l1-dfetch d -l1-dwalloc a -l1-dwback a
 -l2-usize 1m -l2-ubsize 64 -l2-uassoc 16 -l2-urepl l -l2-ufetch d -l2-uwalloc a -l2-uwback a
 -l3-usize 32m -l3-ubsize 64 -l3-uassoc 16 -l3-urepl l -l3-ufetch d -l3-uwalloc a -l3-uwback a"
two=(--level L1:32k:8:64 --level L2:256k:8:64)
dinero_two="-informat d -l1-dsize 32k -l1-dbsize 64 -l1-dassoc 8 -l1-drepl l -l1-dfetch d -l1-dwalloc a -l1-dwback a
 -l2-usize 256k -l2-ubsize 64 -l2-uassoc 8 -l2-urepl l -l2-ufetch d -l2-uwalloc a -l2-uwback a"
# generate FILE WHAT [ARGS]: GenBenchInputs WHAT into FILE, once (written whole: .part, then renamed)
generate() {
  local file="$1" what="$2"
  shift 2
  [[ -f "$file" ]] && return
  echo "generating $file ..." >&2
  "$JAVA_HOME/bin/java" -Xmx1g "$gen_java" "$what" "$file.part" "$@"
  mv "$file.part" "$file"
}
run_dinero() { # args trace
  # shellcheck disable=SC2086
  "$dinero" $dinero_args <"$1"
}

# side_by_side NAME ACCESSES SPARSEPROF_TRACE DINERO_TRACE LEVELS...
side_by_side() {
  local name="$1" n="$2" strace="$3" dtrace="$4"
  shift 4
  local sp=() spc=() di=() dic=() t
  echo "== $name: $n accesses, $runs runs each, alternating (load average $(load))"
  ./sparseprof cachesim --trace "$strace" "$@" >/dev/null # first run after a build writes the class-data archive
  for ((i = 0; i < runs; i++)); do
    read -r w c <<<"$(measure ./sparseprof cachesim --trace "$strace" "$@")"; sp+=("$w"); spc+=("$c")
    if [[ -n "$dinero" ]]; then read -r w c <<<"$(measure run_dinero "$dtrace")"; di+=("$w"); dic+=("$c"); fi
  done
  local ms md msc mdc
  ms=$(median "${sp[@]}"); msc=$(median "${spc[@]}")
  echo "   sparseprof cachesim: wall ${sp[*]} s; median $ms s = $(awk -v n="$n" -v t="$ms" 'BEGIN { printf "%.1f", n / t / 1e6 }') M accesses/s; CPU median $msc s"
  if [[ -n "$dinero" ]]; then
    md=$(median "${di[@]}"); mdc=$(median "${dic[@]}")
    echo "   Dinero IV:           wall ${di[*]} s; median $md s = $(awk -v n="$n" -v t="$md" 'BEGIN { printf "%.1f", n / t / 1e6 }') M accesses/s; CPU median $mdc s"
    echo "   ratio (Dinero / sparseprof, medians): wall $(awk -v a="$md" -v b="$ms" 'BEGIN { printf "%.2f", a / b }')x, CPU $(awk -v a="$mdc" -v b="$msc" 'BEGIN { printf "%.2f", a / b }')x; load average after: $(load)"
  fi
}

for c in "${cases[@]}"; do
  case "$c" in
    start)
      echo "== start-up: median of 10 each (load average $(load))"
      ./sparseprof --help >/dev/null
      for what in "--version" "--help"; do
        ts=(); tc=(); js=(); jc=()
        for ((i = 0; i < 10; i++)); do
          read -r w c <<<"$(measure ./sparseprof "$what")"; ts+=("$w"); tc+=("$c")
          read -r w c <<<"$(measure "$JAVA_HOME/bin/java" -version)"; js+=("$w"); jc+=("$c")
        done
        echo "   ./sparseprof $what: median $(median "${ts[@]}") s wall (${ts[*]}), $(median "${tc[@]}") s CPU;" \
          "java -version beside it: $(median "${js[@]}") s wall, $(median "${jc[@]}") s CPU"
      done
      echo "   load average after: $(load)"
      ;;
    short)
      short_gz="src/test/resources/dinero/shared_mixed_random.din.gz"
      gzip -dc "$short_gz" >"$work/short.din"
      dinero_args="$dinero_two"
      side_by_side "short: $short_gz, two levels (sparseprof reads the .gz, Dinero the unpacked text)" \
        "$(wc -l <"$work/short.din")" "$short_gz" "$work/short.din" "${two[@]}"
      ;;
    spmm)
      spmm="$work/spmm-4096-d5-n8.din"
      generate "$spmm" spmm
      dinero_args="$dinero_three"
      side_by_side "spmm: scalar CSR SpMM stream, 4096x4096 at 5% density, N = 8, three levels" "$(wc -l <"$spmm")" "$spmm" "$spmm" "${three[@]}"
      ;;
    kernel)
      kernel="$work/kernel-csr-4096-d5-n8.din"
      if [[ ! -f "$kernel" ]]; then
        echo "generating $kernel ..." >&2
        [[ -f "$work/layer4096.safetensors" ]] || "$JAVA_HOME/bin/java" -Xmx1g "$gen_java" layer "$work/layer4096.safetensors"
        # (the trace command writes its file whole or not at all)
        ./sparseprof trace "$work/layer4096.safetensors" --layer layer.weight --format csr --batch 8 --sparsity 0.95 --out "$kernel" >/dev/null
      fi
      dinero_args="$dinero_three"
      side_by_side "kernel: ./sparseprof trace of the csr kernel (vector accesses), same layer, three levels" "$(wc -l <"$kernel")" "$kernel" "$kernel" "${three[@]}"
      ;;
    mixed)
      mixed="$work/mixed-$mixed_n.din"
      generate "$mixed" mixed "$mixed_n"
      dinero_args="$dinero_three"
      runs="$mixed_runs" side_by_side "mixed: 60% streaming, 40% uniform over 64 MiB, 30% writes, three levels" "$mixed_n" "$mixed" "$mixed" "${three[@]}"
      ;;
    inproc)
      if [[ -f target/test-classes/dev/sparseprof/bench/CacheSimCpuRate.class ]]; then
        echo "== in-process: CacheSimCpuRate spmm push (M accesses per CPU-second, median of 5; load average $(load))"
        "$JAVA_HOME/bin/java" -Xmx3g -cp "target/test-classes:target/classes:target/bench-lib/*" dev.sparseprof.bench.CacheSimCpuRate spmm push
      else
        echo "== in-process: skipped (run 'mvn test-compile' first for target/test-classes)"
      fi
      ;;
    *) echo "unknown case '$c' (start short spmm mixed kernel inproc)" >&2; exit 2 ;;
  esac
done
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(nproc) CPUs; load average at the end $(load)"
