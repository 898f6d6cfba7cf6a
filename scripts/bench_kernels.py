#!/usr/bin/env python3
"""Peer side of scripts/bench-kernels.sh: the same random matrices through scipy and numpy.

Modes (all take the work directory):
  gen DIR     write the cases (cases.json + raw little-endian float32 files) that every side reads
  scipy DIR   time scipy.sparse CSR @ dense (run with OPENBLAS_NUM_THREADS=1: single-threaded)
  numpy DIR   time numpy dense A @ B (threads as the environment says), print the OpenBLAS core
  report DIR  read scipy.json, numpy1.json, numpy2.json, java.json and print the ratios the goals name
"""
import ctypes, glob, json, os, sys, time

SHAPE = (3072, 768)
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
    return ts[len(ts) // 2]


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
        t = median_seconds(lambda: csr @ b)
        out.append({"id": c["id"], "kernel": "scipy-csr", "threads": 1, "medianSeconds": t,
                    "gflops": 2.0 * csr.nnz * c["n"] / t * 1e-9})
    json.dump(out, sys.stdout, indent=1)


def numpy_side(d):
    threads = int(os.environ.get("OPENBLAS_NUM_THREADS", "0") or 0)
    out = []
    seen = set()
    for c in json.load(open(os.path.join(d, "cases.json"))):
        if c["n"] in seen:
            continue  # dense time does not depend on sparsity
        seen.add(c["n"])
        a, b = load(d, c)
        t = median_seconds(lambda: a @ b)
        out.append({"id": f"n{c['n']}", "kernel": "numpy-dense", "threads": threads, "medianSeconds": t,
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


def report(d):
    cs = {c["id"]: c for c in json.load(open(os.path.join(d, "cases.json")))}
    scipy_r = {r["id"]: r for r in json.load(open(os.path.join(d, "scipy.json")))}
    np1 = json.load(open(os.path.join(d, "numpy1.json")))
    np2 = json.load(open(os.path.join(d, "numpy2.json")))
    java = [json.loads(line) for line in open(os.path.join(d, "java.json")) if line.strip()]
    jt = {(r["id"], r["kernel"], r["threads"]): r for r in java}
    n1 = {r["id"]: r for r in np1["results"]}
    n2 = {r["id"]: r for r in np2["results"]}
    print(f"OpenBLAS core: {np1['openblasCore']} (1 thread), {np2['openblasCore']} (2 threads); "
          f"OPENBLAS_CORETYPE/OPENBLAS_L2_SIZE unset for numpy")
    print("\n== CSR SpMM vs scipy CSR @ dense, both single-threaded (goal >= 3x)")
    print(f"{'case':28} {'scipy GF/s':>10} {'csr GF/s':>9} {'ratio':>6}")
    for cid, c in cs.items():
        if c["n"] not in WIDE:
            continue
        s, j = scipy_r[cid], jt[(cid, "csr", 1)]
        print(f"{cid:28} {s['gflops']:10.1f} {j['gflops']:9.1f} {s['medianSeconds'] / j['medianSeconds']:6.2f}")
    print("\n== dense GEMM vs numpy/OpenBLAS (goal: within 2x, ratio >= 0.5)")
    for n in WIDE:
        did = f"{SHAPE[0]}x{SHAPE[1]}_n{n}_s0.5"
        for threads, nref in ((1, n1), (2, n2)):
            j, p = jt[(did, "dense", threads)], nref[f"n{n}"]
            print(f"3072x768x{n:<4} {threads} thread(s): numpy {p['gflops']:6.1f} GF/s  sparseprof {j['gflops']:6.1f} GF/s  "
                  f"ratio {p['medianSeconds'] / j['medianSeconds']:.2f}")
    print("\n== CSR-vs-dense crossover sparsity on 3072x768 (goal <= 0.85 at N=128)")
    for n in WIDE:
        ids = [f"{SHAPE[0]}x{SHAPE[1]}_n{n}_s{s}" for s in SPARSITIES]
        for threads, nref in ((1, n1), (2, n2)):
            csr_t = [jt[(i, "csr", threads)]["medianSeconds"] for i in ids]
            own = jt[(ids[0], "dense", threads)]["medianSeconds"]
            peer = nref[f"n{n}"]["medianSeconds"]
            print(f"N={n:<4} {threads} thread(s): vs own dense {crossover(SPARSITIES, csr_t, own):>7}   "
                  f"vs numpy dense {crossover(SPARSITIES, csr_t, peer):>7}")
    print("\n== small N at 90% sparsity: hardware gather (csr-gather) vs broadcast-and-FMA (csr), 1 thread")
    for n in NARROW:
        cid = f"{SHAPE[0]}x{SHAPE[1]}_n{n}_s0.9"
        g, b, sell = jt[(cid, "csr-gather", 1)], jt[(cid, "csr", 1)], jt.get((cid, "sell-16-256", 1))
        print(f"N={n}: gather {g['gflops']:5.1f} GF/s ({g['effectiveGBps']:5.1f} GB/s)  broadcast {b['gflops']:5.1f} GF/s "
              f"({b['effectiveGBps']:5.1f} GB/s)  gather/broadcast speed {b['medianSeconds'] / g['medianSeconds']:.2f}  "
              f"scipy {scipy_r[cid]['gflops']:5.1f} GF/s" + (f"  sell-16-256 {sell['gflops']:5.1f} GF/s" if sell else ""))
    print("\n== sparseprof GB/s and GF/s per kernel (what bounds it: see docs/kernels.md)")
    for (cid, k, t), r in sorted(jt.items()):
        if cid.endswith("_s0.9") or (k == "dense" and cid.endswith("_s0.5")):
            print(f"{cid:28} {k:10} t={t}  {r['gflops']:6.1f} GF/s  {r['effectiveGBps']:6.1f} GB/s  imbalance {r['imbalance']:.2f}")


if __name__ == "__main__":
    mode, d = sys.argv[1], sys.argv[2]
    {"gen": gen, "scipy": scipy_side, "numpy": numpy_side, "report": report}[mode](d)
