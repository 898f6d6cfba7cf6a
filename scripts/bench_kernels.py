#!/usr/bin/env python3
"""Peer side of scripts/bench-kernels.sh: the same random matrices through scipy and numpy.

Modes (all take the work directory):
  gen DIR     write the cases (cases.json + raw little-endian float32 files) that every side reads
  scipy DIR   time scipy.sparse CSR @ dense (run with OPENBLAS_NUM_THREADS=1: single-threaded)
  numpy DIR   time numpy dense A @ B (threads as the environment says), print the OpenBLAS core
  torch DIR   time PyTorch's CPU CSR (torch.sparse_csr_tensor @ dense, MKL where PyTorch has it) on 1 thread;
              prints {"skipped": why} when torch does not import
  report DIR  read scipy.json, numpy1.json, numpy2.json, torch.json, java.json, roof.json and print the
              ratios the goals name and each format's fraction of its roof
"""
import ctypes, glob, json, os, sys, time

SHAPE = (3072, 768)
SMALL = (1536, 384)
LARGE = (3072, 3072)  # B at N = 128 is 1.5 MiB: past a 1-2 MiB L2, where csr runs column passes
SPARSITIES = [0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95]
WIDE = [16, 128]
NARROW = [1, 4, 8]
REPS = 15


def cases():
    out = []
    for n in WIDE:
        for s in SPARSITIES:
            out.append({"id": f"{SHAPE[0]}x{SHAPE[1]}_n{n}_s{s}", "m": SHAPE[0], "k": SHAPE[1], "n": n, "sparsity": s})
    for n in NARROW:
        out.append({"id": f"{SHAPE[0]}x{SHAPE[1]}_n{n}_s0.9", "m": SHAPE[0], "k": SHAPE[1], "n": n, "sparsity": 0.9})
    m, k = SMALL
    for s in (0.5, 0.9):  # the smallest layer the 2-thread goal names
        out.append({"id": f"{m}x{k}_n128_s{s}", "m": m, "k": k, "n": 128, "sparsity": s})
    m, k = LARGE
    out.append({"id": f"{m}x{k}_n128_s0.9", "m": m, "k": k, "n": 128, "sparsity": 0.9})
    return out


def gen(d):
    import numpy as np
    rng = np.random.default_rng(7)
    cs = cases()
    for c in cs:
        a = rng.standard_normal((c["m"], c["k"]), dtype=np.float32)
        a[rng.random(a.shape) < c["sparsity"]] = 0.0
        b = rng.standard_normal((c["k"], c["n"]), dtype=np.float32)
        c["aFile"] = c["id"] + ".a.f32"
        c["bFile"] = c["id"] + ".b.f32"
        a.astype("<f4").tofile(os.path.join(d, c["aFile"]))
        b.astype("<f4").tofile(os.path.join(d, c["bFile"]))
        c["nnz"] = int(np.count_nonzero(a))
        blocks = a[: c["m"] // 4 * 4, : c["k"] // 4 * 4].reshape(c["m"] // 4, 4, c["k"] // 4, 4)
        c["blocks4x4"] = int(np.count_nonzero(np.abs(blocks).sum(axis=(1, 3))))
    with open(os.path.join(d, "cases.json"), "w") as f:
        json.dump(cs, f, indent=1)


def load(d, c):
    import numpy as np
    a = np.fromfile(os.path.join(d, c["aFile"]), dtype="<f4").reshape(c["m"], c["k"])
    b = np.fromfile(os.path.join(d, c["bFile"]), dtype="<f4").reshape(c["k"], c["n"])
    return a, b


def median_seconds(fn):
    for _ in range(3):
        fn()
    ts = []
    for _ in range(REPS):
        t = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t)
    ts.sort()
    return ts[len(ts) // 2], ts[0]


def openblas_core():
    import numpy
    libs = glob.glob(os.path.join(os.path.dirname(numpy.__file__), "..", "numpy.libs", "libscipy_openblas*.so"))
    for lib in libs:
        h = ctypes.CDLL(lib)
        for name in ("scipy_openblas_get_corename64_", "scipy_openblas_get_corename", "openblas_get_corename"):
            if hasattr(h, name):
                f = getattr(h, name)
                f.restype = ctypes.c_char_p
                return f().decode()
    return "unknown"


def scipy_side(d):
    import scipy.sparse as sp
    out = []
    for c in json.load(open(os.path.join(d, "cases.json"))):
        a, b = load(d, c)
        csr = sp.csr_matrix(a)
        t, best = median_seconds(lambda: csr @ b)
        out.append({"id": c["id"], "kernel": "scipy-csr", "threads": 1, "medianSeconds": t, "minSeconds": best,
                    "gflops": 2.0 * csr.nnz * c["n"] / t * 1e-9})
    json.dump(out, sys.stdout, indent=1)


def torch_side(d):
    try:
        import torch
    except Exception as e:  # not installed here, or a wheel that does not load
        print(json.dumps({"skipped": f"torch does not import: {type(e).__name__}: {e}".splitlines()[0]}))
        return
    torch.set_num_threads(1)
    out = []
    for c in json.load(open(os.path.join(d, "cases.json"))):
        if c["n"] not in WIDE or not c["id"].startswith(f"{SHAPE[0]}x{SHAPE[1]}"):
            continue
        a, b = load(d, c)
        at = torch.from_numpy(a).to_sparse_csr()
        bt = torch.from_numpy(b)
        with torch.no_grad():
            t, best = median_seconds(lambda: torch.matmul(at, bt))
        nnz = int(at.values().numel())
        out.append({"id": c["id"], "kernel": "torch-csr", "threads": 1, "medianSeconds": t, "minSeconds": best,
                    "gflops": 2.0 * nnz * c["n"] / t * 1e-9})
    print(json.dumps({"torch": torch.__version__, "mkl": bool(torch.backends.mkl.is_available()), "results": out}, indent=1))


def numpy_side(d):
    threads = int(os.environ.get("OPENBLAS_NUM_THREADS", "0") or 0)
    out = []
    seen = set()
    for c in json.load(open(os.path.join(d, "cases.json"))):
        if c["n"] in seen:
            continue  # dense time does not depend on sparsity
        seen.add(c["n"])
        a, b = load(d, c)
        t, best = median_seconds(lambda: a @ b)
        out.append({"id": f"n{c['n']}", "kernel": "numpy-dense", "threads": threads, "medianSeconds": t, "minSeconds": best,
                    "gflops": 2.0 * c["m"] * c["k"] * c["n"] / t * 1e-9})
    print(json.dumps({"openblasCore": openblas_core(), "results": out}, indent=1))


def crossover(sparsities, sparse_t, dense_t):
    """Lowest sparsity where the sparse time falls below dense_t, interpolated between grid points."""
    prev = None
    for s, t in zip(sparsities, sparse_t):
        if t < dense_t:
            if prev is None:
                return f"<= {s:.2f}"
            ps, pt = prev
            x = ps + (s - ps) * (pt - dense_t) / (pt - t)
            return f"{x:.3f}"
        prev = (s, t)
    return f"> {sparsities[-1]:.2f}"


def column_blocks(n, lanes):
    """How many column blocks csr cuts N into at `lanes` fp32 lanes (kernel.ColumnBlocks: blocks of
    8 vectors while 8 fit, then one of 4, 2 and 1 as the rest needs, then a masked tail)."""
    blocks, rest = 0, n
    while rest > 0:
        whole = rest // lanes
        vectors = 8 if whole >= 8 else (1 << (whole.bit_length() - 1) if whole else 0)
        rest -= vectors * lanes if vectors else rest
        blocks += 1
    return blocks


def csr_bytes_per_flop(n, lanes, nnz, rows):
    """What csr moves between L2 and the core per FLOP (2 nnz N of them): per entry its B row (4N bytes)
    and, once per column block, its value and column index (8 bytes: N = 128 at 8 lanes is two blocks, so
    the row's values and indices are read twice); per row its C row, written once (4N bytes)."""
    return (nnz * (4.0 * n + 8.0 * column_blocks(n, lanes)) + rows * 4.0 * n) / (2.0 * nnz * n)


def roof_gflops(roof, bits, bytes_per_flop):
    """min(L2-read bound, FMA peak at this width): the probe's 1-thread figures, probed at this width
    (the peak scaled to `bits` only where the probe's JVM ran another width)."""
    l2 = roof["l2ReadBytesPerSecond"] / bytes_per_flop * 1e-9
    peak = roof["fp32FlopsPerSecond"] * bits / roof["probeVectorBits"] * 1e-9
    return min(l2, peak)


# FMA pipes per core the clock below assumes: 2 on the Xeons and Zen 5 seen, 1 (512-bit) on Zen 4;
# BENCH_FMA_PORTS overrides it (hardware-specs/*.yaml's fmaPorts names the machine's)
FMA_PORTS = int(os.environ.get("BENCH_FMA_PORTS", "2"))


def fma_clock(roof):
    """The effective FMA clock, as calibrate --probe derives it (calibrate.ProbeOverlay): the probe's
    1-thread fp32 FMA peak / (lanes x FMA_PORTS x 2). A VM's /proc/cpuinfo names the nominal clock only."""
    return roof["fp32FlopsPerSecond"] / (roof["probeVectorBits"] / 32 * FMA_PORTS * 2)


def nominal_mhz():
    try:
        return next(float(line.split(":")[1]) for line in open("/proc/cpuinfo") if line.startswith("cpu MHz"))
    except (OSError, StopIteration, ValueError):
        return None


def report(d):
    cs = {c["id"]: c for c in json.load(open(os.path.join(d, "cases.json")))}
    scipy_r = {r["id"]: r for r in json.load(open(os.path.join(d, "scipy.json")))}
    np1 = json.load(open(os.path.join(d, "numpy1.json")))
    np2 = json.load(open(os.path.join(d, "numpy2.json")))
    np1v2 = json.load(open(os.path.join(d, "numpy1-avx2.json")))
    np2v2 = json.load(open(os.path.join(d, "numpy2-avx2.json")))
    torch_all = json.load(open(os.path.join(d, "torch.json")))
    # one probe per kernel width, each under that width's JVM flags
    roofs = {r["kernelVectorBits"]: r for r in (json.loads(line) for line in open(os.path.join(d, "roof.json")) if line.strip())}
    lines = [json.loads(line) for line in open(os.path.join(d, "java.json")) if line.strip()]
    configs = {r["vectorBits"]: r for r in lines if "config" in r}
    jt = {(r["id"], r["kernel"], r["threads"], r["vectorBits"]): r for r in lines if "config" not in r}
    widths = sorted(configs, reverse=True)
    n1 = {r["id"]: r for r in np1["results"]}
    n2 = {r["id"]: r for r in np2["results"]}
    # OpenBLAS per width: its own choice (SkylakeX here) beside the preferred width, Haswell beside 256 bits
    blas = {b: ({r["id"]: r for r in np1v2["results"]}, {r["id"]: r for r in np2v2["results"]})
            if b <= 256 else (n1, n2) for b in widths}
    tr = {r["id"]: r for r in torch_all.get("results", [])}
    big = f"{SHAPE[0]}x{SHAPE[1]}"
    small = f"{SMALL[0]}x{SMALL[1]}"

    def j(cid, kernel, threads, bits):
        return jt.get((cid, kernel, threads, bits))

    def gf(r):
        return f"{r['gflops']:7.1f}" if r else "      -"

    def ratio(peer, ours):
        return f"{peer['medianSeconds'] / ours['medianSeconds']:6.2f}" if peer and ours else "     -"

    print(f"OpenBLAS core: {np1['openblasCore']} (1 thread), {np2['openblasCore']} (2 threads), OPENBLAS_CORETYPE/OPENBLAS_L2_SIZE "
          f"unset; beside 256 bits: {np1v2['openblasCore']} / {np2v2['openblasCore']} (OPENBLAS_CORETYPE=Haswell)")
    print("PyTorch: " + (f"{torch_all['torch']}, MKL {'yes' if torch_all['mkl'] else 'no'}, 1 thread"
                         if "torch" in torch_all else f"skipped ({torch_all.get('skipped')})"))
    for b in widths:
        print(f"sparseprof at {b} bits: {configs[b]['kernelVectors']}; {configs[b]['jvmFlags'] or 'no extra JVM flags'}; "
              f"dense tile {configs[b]['denseTiling']}")
    for b in widths:
        roof = roofs[b]
        print(f"probe beside {b} bits (1 thread, calibrate --probe's loops at {roof['probeVectorBits']} bits): "
              f"L1 read {roof['l1ReadBytesPerSecond'] * 1e-9:.1f} GB/s, "
              f"L2 read {roof['l2ReadBytesPerSecond'] * 1e-9:.1f} GB/s, L3 read {roof['l3ReadBytesPerSecond'] * 1e-9:.1f} GB/s, "
              f"fp32 FMA peak {roof['fp32FlopsPerSecond'] * 1e-9:.1f} GFLOP/s; "
              f"L1d {roof['l1dBytes'] >> 10} KiB, L2 {roof['l2Bytes'] >> 10} KiB"
              + ("" if roof["cachesFromSysfs"] else " (sysfs hid them: fallback sizes)"))
        clock = fma_clock(roof)
        mhz = nominal_mhz()
        print(f"   clock assumed {clock * 1e-9:.2f} GHz (fp32 peak / ({roof['probeVectorBits'] // 32} lanes x {FMA_PORTS} FMA ports x 2); "
              f"/proc/cpuinfo {'says ' + format(mhz, '.0f') + ' MHz' if mhz else 'names none'}): per clock L1 read "
              f"{roof['l1ReadBytesPerSecond'] / clock:.1f} B, L2 read {roof['l2ReadBytesPerSecond'] / clock:.1f} B, "
              f"L3 read {roof['l3ReadBytesPerSecond'] / clock:.1f} B, {roof['fp32FlopsPerSecond'] / clock:.0f} fp32 FLOP")

    print(f"\n== CSR SpMM {big}, 1 thread, GFLOP/s and speed-up of sparseprof csr over each peer (goal >= 3x scipy)")
    head = f"{'N':>4} {'sparsity':>8} {'scipy':>7} {'torch':>7}"
    for b in widths:
        head += f" {'csr@' + str(b):>8} {'/scipy':>6} {'/torch':>6}"
    print(head)
    for cid, c in cs.items():
        if c["n"] not in WIDE or not cid.startswith(big):
            continue
        row = f"{c['n']:>4} {c['sparsity']:>8.2f} {gf(scipy_r.get(cid))} {gf(tr.get(cid))}"
        for b in widths:
            ours = j(cid, "csr", 1, b)
            row += f" {gf(ours)} {ratio(scipy_r.get(cid), ours)} {ratio(tr.get(cid), ours)}"
        print(row)
    for n in WIDE:
        cid = f"{big}_n{n}_s0.9"
        e = j(cid, "ejml-csc", 1, widths[0])
        if e:
            print(f"EJML ejml-csc (DMatrixSparseCSC x DMatrixRMaj, fp64), N={n}, 90%: {e['gflops']:.2f} GFLOP/s; "
                  + ", ".join(f"csr@{b} is {e['medianSeconds'] / j(cid, 'csr', 1, b)['medianSeconds']:.1f}x faster" for b in widths))

    print(f"\n== dense GEMM {big} x N vs numpy/OpenBLAS (goal: 1 thread, N=128, >= 0.8x OpenBLAS's speed)")
    for n in WIDE:
        did = f"{big}_n{n}_s0.5"
        for threads in (1, 2):
            row = f"N={n:<4} {threads} thread(s):"
            for b in widths:
                p = blas[b][threads - 1][f"n{n}"]
                ours = j(did, "dense", threads, b)
                row += (f"  numpy({'Haswell' if b <= 256 else 'own core'}) {p['gflops']:6.1f} vs dense@{b} {ours['gflops']:6.1f} GF/s"
                        f" ({p['medianSeconds'] / ours['medianSeconds']:.2f}x)")
            print(row)

    print(f"\n== fraction of the roof, 1 thread, {big}, 90% (dense: the same matrix stored dense)")
    print("   roof = min(L2 read bandwidth / bytes per FLOP from L2, FMA peak), both probed at the width; csr per FLOP:")
    print("   (nnz (4N + 8 x column blocks) + rows x 4N) / (2 nnz N) bytes (B row per entry, value and index per block, C row once),")
    print("   dense: 2 / (tile rows) (the packed B panel from L2 once per row tile), coo: (4N + 12) / 2N,")
    print("   bsr4x4: (0.5 + 2/N) / (non-zero share of the stored entries), ejml-csc: 12 (fp64 B load, C load + store per FMA);")
    print("   cyc/nz: the median's clock cycles per non-zero of A, at the width's assumed clock (above)")
    print(f"{'format':>10} {'N':>4} {'bits':>4} {'B/FLOP':>6} {'roof GF/s':>9} {'GF/s':>7} {'of roof':>7} {'cyc/nz':>6}")
    for b in widths:
        roof = roofs[b]

        def cyc(r, nnz):
            return f"{r['medianSeconds'] * fma_clock(roof) / nnz:6.2f}"
        for n in WIDE:
            c = cs[f"{big}_n{n}_s0.9"]
            bpf = csr_bytes_per_flop(n, b // 32, c["nnz"], c["m"])
            r = j(f"{big}_n{n}_s0.9", "csr", 1, b)
            rf = roof_gflops(roof, b, bpf)
            print(f"{'csr':>10} {n:>4} {b:>4} {bpf:6.2f} {rf:9.1f} {r['gflops']:7.1f} {r['gflops'] / rf:7.0%} {cyc(r, c['nnz'])}")
        bpf = 2.0 / configs[b]["denseTileRows"]
        rf = roof_gflops(roof, b, bpf)
        r = j(f"{big}_n128_s0.5", "dense", 1, b)
        print(f"{'dense':>10} {128:>4} {b:>4} {bpf:6.2f} {rf:9.1f} {r['gflops']:7.1f} {r['gflops'] / rf:7.0%}")
        for n in WIDE:
            cid = f"{big}_n{n}_s0.9"
            r = j(cid, "coo", 1, b)
            bpf = (4.0 * n + 12.0) / (2.0 * n)
            rf = roof_gflops(roof, b, bpf)
            print(f"{'coo':>10} {n:>4} {b:>4} {bpf:6.2f} {rf:9.1f} {r['gflops']:7.1f} {r['gflops'] / rf:7.0%} {cyc(r, cs[cid]['nnz'])}")
            r = j(cid, "bsr4x4", 1, b)
            kept = cs[cid]["nnz"] / (16.0 * cs[cid]["blocks4x4"])  # useful share of the stored 4x4 blocks
            bpf = (0.5 + 4.0 / (2.0 * n)) / kept  # a B strip per 4 rows, a value per stored entry
            peak = roof["fp32FlopsPerSecond"] * b / roof["probeVectorBits"] * 1e-9
            rf = min(roof["l2ReadBytesPerSecond"] / bpf * 1e-9, kept * peak)  # useful GFLOP/s: padding FMAs count against it
            print(f"{'bsr4x4':>10} {n:>4} {b:>4} {bpf:6.2f} {rf:9.1f} {r['gflops']:7.1f} {r['gflops'] / rf:7.0%} {cyc(r, cs[cid]['nnz'])}"
                  f"   (random matrix: {kept:.0%} of the stored entries are non-zero)")
    e = j(f"{big}_n128_s0.9", "ejml-csc", 1, widths[0])
    if e:
        rf = roofs[widths[0]]["l2ReadBytesPerSecond"] / 12.0 * 1e-9
        print(f"{'ejml-csc':>10} {128:>4} {'fp64':>4} {12.0:6.2f} {rf:9.1f} {e['gflops']:7.1f} {e['gflops'] / rf:7.0%}")
    for peer, rows in (("scipy", scipy_r), ("torch", tr)):
        r = rows.get(f"{big}_n128_s0.9")
        if r:
            c = cs[f"{big}_n128_s0.9"]
            bpf = csr_bytes_per_flop(128, 128, c["nnz"], c["m"])  # one pass over each row
            rf = roof_gflops(roofs[widths[0]], widths[0], bpf)
            print(f"{peer:>10} {128:>4} {'':>4} {bpf:6.2f} {rf:9.1f} {r['gflops']:7.1f} {r['gflops'] / rf:7.0%}")

    large = f"{LARGE[0]}x{LARGE[1]}"
    cid = f"{large}_n128_s0.9"
    if cid in scipy_r:
        kb = LARGE[1] * 128 * 4 >> 10
        row = f"\n== csr with B past L2: {large}, N=128, 90% (B {kb} KiB; L2 {roofs[widths[0]]['l2Bytes'] >> 10} KiB): scipy {gf(scipy_r[cid])} GF/s"
        for b in widths:
            ours, two = j(cid, "csr", 1, b), j(cid, "csr", 2, b)
            row += f"; csr@{b} {gf(ours)} ({ratio(scipy_r[cid], ours).strip()}x scipy), 2 threads {gf(two)} ({ratio(ours, two).strip()}x)"
        print(row)

    print("\n== 2 threads over 1, N=128 (goal >= 1.8x for dense and csr on 1536x384 and up; csr at 90%)")
    for shape in (big, small):
        for kernel, sp in (("dense", "0.5"), ("csr", "0.9")):
            cid = f"{shape}_n128_s{sp}"
            row = f"{shape:>9} {kernel:>5}:"
            for b in widths:
                t1, t2 = j(cid, kernel, 1, b), j(cid, kernel, 2, b)
                row += f"  @{b}: {t1['gflops']:6.1f} -> {t2['gflops']:6.1f} GF/s = {t1['medianSeconds'] / t2['medianSeconds']:.2f}x (imbalance {t2['imbalance']:.2f})"
            print(row)

    print("\n== issue 12's goals, this run (1 thread unless named): the ratio of medians decides; the ratio of")
    print("   each side's fastest run is shown too (under contention the fastest run is the one least disturbed)")
    for b in widths:
        goals = []
        def pair(slow, fast):
            return slow["medianSeconds"] / fast["medianSeconds"], slow["minSeconds"] / fast["minSeconds"]
        goals.append((f"dense {big}x128 >= 0.8x OpenBLAS{' (Haswell)' if b <= 256 else ''}",
                      *pair(blas[b][0]["n128"], j(f"{big}_n128_s0.5", "dense", 1, b)), 0.8))
        for n in (128, 16):
            cid = f"{big}_n{n}_s0.9"
            goals.append((f"csr 90% N={n} >= 3x scipy", *pair(scipy_r[cid], j(cid, "csr", 1, b)), 3.0))
        r = j(f"{big}_n128_s0.9", "csr", 1, b)
        c = cs[f"{big}_n128_s0.9"]
        rf = roof_gflops(roofs[b], b, csr_bytes_per_flop(128, b // 32, c["nnz"], c["m"]))
        goals.append(("csr 90% N=128 >= 75% of its roof", r["gflops"] / rf, r["gflops"] * r["medianSeconds"] / r["minSeconds"] / rf, 0.75))
        for shape in (big, small):
            for kernel, sp in (("dense", "0.5"), ("csr", "0.9")):
                cid = f"{shape}_n128_s{sp}"
                goals.append((f"{kernel} {shape}x128 2 threads >= 1.8x of 1", *pair(j(cid, kernel, 1, b), j(cid, kernel, 2, b)), 1.8))
        for what, got, best, goal in goals:
            print(f"@{b:<4} {what:42} {got:6.2f}  {'met' if got >= goal else 'short':5}  (best runs: {best:.2f})")

    b0 = widths[0]
    print(f"\n== CSR-vs-dense crossover sparsity on {big} at {b0} bits (lowest sparsity where csr beats dense)")
    for n in WIDE:
        ids = [f"{big}_n{n}_s{s}" for s in SPARSITIES]
        for threads, nref in ((1, n1), (2, n2)):
            csr_t = [j(i, "csr", threads, b0)["medianSeconds"] for i in ids]
            own = j(ids[0], "dense", threads, b0)["medianSeconds"]
            peer = nref[f"n{n}"]["medianSeconds"]
            print(f"N={n:<4} {threads} thread(s): vs own dense {crossover(SPARSITIES, csr_t, own):>7}   "
                  f"vs numpy dense {crossover(SPARSITIES, csr_t, peer):>7}")
    print("\n== small N at 90% sparsity, 1 thread, GFLOP/s: hardware gather (csr-gather), SELL, broadcast (csr), scipy")
    for n in NARROW:
        cid = f"{big}_n{n}_s0.9"
        row = f"N={n}: scipy {scipy_r[cid]['gflops']:5.1f}"
        for b in widths:
            g, bc, se = j(cid, "csr-gather", 1, b), j(cid, "csr", 1, b), j(cid, "sell", 1, b)
            row += f"  @{b}: gather {g['gflops']:5.1f} sell {se['gflops']:5.1f} csr {bc['gflops']:5.1f}"
        print(row)


if __name__ == "__main__":
    mode, d = sys.argv[1], sys.argv[2]
    {"gen": gen, "scipy": scipy_side, "numpy": numpy_side, "torch": torch_side, "report": report}[mode](d)
