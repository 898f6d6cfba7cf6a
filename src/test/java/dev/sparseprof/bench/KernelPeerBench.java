package dev.sparseprof.bench;

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
 * Wide cases (N >= 16): csr and dense on 1 and 2 threads; narrow ones: csr, csr-gather and sell-16-256. The
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
        Set<String> warmed = new HashSet<>();
        try (WorkerPool one = new WorkerPool(1); WorkerPool two = new WorkerPool(2)) {
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
                for (String kernel : wide ? List.of("csr", "dense") : List.of("csr", "csr-gather", "sell-16-256")) {
                    if (kernel.equals("dense") && !denseCase) continue; // dense time does not depend on sparsity
                    for (WorkerPool pool : wide ? List.of(one, two) : List.of(one)) {
                        CpuRunner.Request request = new CpuRunner.Request(id, n, pool.threads(), Partitions.byName("nnz"), timing);
                        if (warmed.add(kernel + "/" + pool.threads())) CpuRunner.measure(Kernels.byName(kernel), a, request, pool);
                        Measurement r = CpuRunner.measure(Kernels.byName(kernel), a, request, pool);
                        JsonWriter w = new JsonWriter();
                        w.beginObject().field("id", id).field("kernel", kernel).field("threads", pool.threads())
                                .field("medianSeconds", r.medianSeconds()).field("gflops", r.gflops())
                                .field("effectiveGBps", r.effectiveGBps()).field("imbalance", r.timing().imbalance()).endObject();
                        System.out.println(w.toString().replace("\n", " ").trim());
                        System.err.printf("%s %s t=%d %.1f GFLOP/s%n", id, kernel, pool.threads(), r.gflops());
                    }
                }
            }
        }
    }

    private static float[] readFloats(Path file, int count) throws IOException {
        ByteBuffer buf = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
        float[] out = new float[count];
        buf.asFloatBuffer().get(out);
        return out;
    }
}
