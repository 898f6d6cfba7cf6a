package dev.sparseprof.bench;

import dev.sparseprof.kernel.DenseGemm;
import dev.sparseprof.kernel.KernelVectors;
import dev.sparseprof.kernel.Kernels;
import dev.sparseprof.kernel.Partitions;
import dev.sparseprof.kernel.WorkerPool;
import dev.sparseprof.measure.CpuRunner;
import dev.sparseprof.measure.Measurement;
import dev.sparseprof.measure.TimingConfig;
import dev.sparseprof.util.Json;
import dev.sparseprof.util.JsonWriter;
import dev.sparseprof.util.MatrixView;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The sparseprof side of {@code scripts/bench-kernels.sh}: reads the cases the python side wrote
 * (raw little-endian float32 A and B) and prints one JSON line per (case, kernel, threads).
 * Wide cases (N >= 16): csr and dense on 1 and 2 threads, coo and bsr4x4 on 1 thread at 90% sparsity
 * (and, with a third argument {@code peers}, EJML's {@code ejml-csc} there too); narrow ones: csr, csr-gather and SELL
 * ({@code sell-C-256}, C = the lanes of the kernels' width). Each line names the width
 * ({@code vectorBits}, {@link KernelVectors}). The
 * optional second argument keeps only the cases of one N: the script runs each N in its own JVM,
 * so that the JIT's profile of one N (dense at N=16 takes the partial-panel path) does not shape
 * the code timed at another. The first run of each (kernel, threads) is repeated untimed first.
 */
public final class KernelPeerBench {
    private KernelPeerBench() {}

    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args[0]);
        @SuppressWarnings("unchecked")
        List<Object> cases = (List<Object>) Json.parse(Files.readString(dir.resolve("cases.json")));
        TimingConfig timing = new TimingConfig(10, 0.5, 15);
        Integer onlyN = args.length > 1 ? Integer.valueOf(args[1]) : null;
        boolean peers = args.length > 2 && args[2].equals("peers");
        String sell = sellName();
        System.out.println(configLine());
        Set<String> warmed = new HashSet<>();
        // pinned as `measure` pins (part t on the t-th allowed CPU): unpinned, a JVM that met the VM's slower
        // vCPU moved a figure by up to 40 % between two runs of the script on the Zen 5 VM (docs/kernels.md)
        try (WorkerPool one = WorkerPool.pinned(1); WorkerPool two = WorkerPool.pinned(2)) {
            for (Object o : cases) {
                @SuppressWarnings("unchecked")
                Map<String, Object> c = (Map<String, Object>) o;
                String id = (String) c.get("id");
                int m = ((Number) c.get("m")).intValue();
                int k = ((Number) c.get("k")).intValue();
                int n = ((Number) c.get("n")).intValue();
                if (onlyN != null && n != onlyN) continue;
                MatrixView a = MatrixView.of(m, k, readFloats(dir.resolve((String) c.get("aFile")), m * k));
                boolean wide = n >= 16;
                boolean denseCase = wide && id.endsWith("_s0.5");
                for (String kernel : wide ? List.of("csr", "dense", "coo", "bsr4x4", "ejml-csc") : List.of("csr", "csr-gather", sell)) {
                    if (kernel.equals("dense") && !denseCase) continue; // dense time does not depend on sparsity
                    boolean ejml = kernel.equals("ejml-csc");
                    boolean oneThread = ejml || kernel.equals("coo") || kernel.equals("bsr4x4");
                    if (oneThread && !id.endsWith("_s0.9")) continue; // the other formats and the peer at the goals' sparsity
                    if (ejml && !peers) continue;
                    for (WorkerPool pool : wide && !oneThread ? List.of(one, two) : List.of(one)) {
                        CpuRunner.Request request = new CpuRunner.Request(id, n, pool.threads(), Partitions.byName("nnz"), timing);
                        if (warmed.add(kernel + "/" + pool.threads())) CpuRunner.measure(Kernels.byName(kernel), a, request, pool);
                        Measurement r = CpuRunner.measure(Kernels.byName(kernel), a, request, pool);
                        JsonWriter w = new JsonWriter();
                        w.beginObject().field("id", id).field("kernel", kernel.startsWith("sell-") ? "sell" : kernel)
                                .field("vectorBits", KernelVectors.FLOATS.vectorBitSize()).field("threads", pool.threads())
                                .field("medianSeconds", r.medianSeconds()).field("minSeconds", r.timing().minSeconds()).field("gflops", r.gflops())
                                .field("effectiveGBps", r.effectiveGBps()).field("imbalance", r.timing().imbalance()).endObject();
                        System.out.println(w.toString().replace("\n", " ").trim());
                        System.err.printf("%s %s %d-bit t=%d %.1f GFLOP/s%n", id, kernel, KernelVectors.FLOATS.vectorBitSize(), pool.threads(), r.gflops());
                    }
                }
            }
        }
    }

    /** What this JVM runs the kernels with: the width, the flags that set it, the dense tiling. */
    private static String configLine() {
        StringBuilder flags = new StringBuilder();
        for (String f : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (f.startsWith("-XX:") || f.startsWith("-D" + KernelVectors.CAP_PROPERTY)) flags.append(flags.isEmpty() ? "" : " ").append(f);
        }
        JsonWriter w = new JsonWriter();
        w.beginObject().field("config", true).field("vectorBits", KernelVectors.FLOATS.vectorBitSize())
                .field("kernelVectors", KernelVectors.describe()).field("jvmFlags", flags.toString())
                .field("denseTiling", DenseGemm.tiling().describe()).field("denseTileRows", DenseGemm.tiling().rows()).endObject();
        return w.toString().replace("\n", " ").trim();
    }

    /** The SELL kernel's registry name at this width ({@code sell-16-256} at 512 bits, {@code sell-8-256} at 256). */
    private static String sellName() {
        for (String name : Kernels.names()) if (name.startsWith("sell-")) return name;
        throw new IllegalStateException("no SELL kernel registered");
    }

    private static float[] readFloats(Path file, int count) throws IOException {
        ByteBuffer buf = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
        float[] out = new float[count];
        buf.asFloatBuffer().get(out);
        return out;
    }
}
