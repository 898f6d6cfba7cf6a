package dev.sparseprof.bench;

import dev.sparseprof.model.GemmLayer;
import dev.sparseprof.model.Model;
import dev.sparseprof.model.Models;
import dev.sparseprof.sparse.stats.MatrixScan;
import dev.sparseprof.sparse.stats.MatrixStats;
import dev.sparseprof.sparse.stats.ScanOptions;
import dev.sparseprof.util.MatrixView;
import dev.sparseprof.util.Progress;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * profile's scan of a checkpoint, timed inside one JVM (run by scripts/bench-checkpoint-scan.sh):
 * {@code MODEL REPEATS} opens the model (a file or a Hugging Face folder) and scans every layer
 * with profile's statistics on all cores (one {@link MatrixScan#ofAll} team, {@link ScanOptions#DEFAULT}), REPEATS
 * times after a first pass (timed apart: it is what one {@code profile} run does, with the JIT
 * cold), and prints each time, the median, and the GB/s over the
 * bytes of the model's files (every regular file in a folder). Prints {@code SCAN_SECONDS=median}.
 */
public final class CheckpointScanBench {
    private CheckpointScanBench() {}

    public static void main(String[] args) throws IOException {
        Path model = Path.of(args[0]);
        int repeats = Integer.parseInt(args[1]);
        long bytes = bytes(model);
        ScanOptions options = ScanOptions.DEFAULT.withThreads(Runtime.getRuntime().availableProcessors());
        double[] seconds = new double[repeats];
        long nnz = 0;
        double first = 0;
        for (int i = -1; i < repeats; i++) {
            long t0 = System.nanoTime();
            nnz = 0;
            try (Model m = Models.open(model)) {
                List<MatrixView> matrices = new ArrayList<>();
                for (GemmLayer l : m.layers()) matrices.add(l.matrix());
                for (MatrixStats s : MatrixScan.ofAll(matrices, options, Progress.NONE)) nnz += s.nnz();
            }
            if (i >= 0) seconds[i] = (System.nanoTime() - t0) / 1e9;
            else first = (System.nanoTime() - t0) / 1e9;
        }
        double[] sorted = seconds.clone();
        Arrays.sort(sorted);
        double median = sorted.length % 2 == 1 ? sorted[sorted.length / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
        System.out.printf(Locale.ROOT, "in-JVM scan (open + every layer, %d threads): median %.3f s = %.2f GB/s over %.2f GB, nnz %d, runs %s%n",
                options.threads(), median, bytes / median / 1e9, bytes / 1e9, nnz, Arrays.toString(round(seconds)));
        System.out.printf(Locale.ROOT, "first pass (what one profile run does: JIT cold): %.3f s = %.2f GB/s%n", first, bytes / first / 1e9);
        System.out.printf(Locale.ROOT, "FIRST_SECONDS=%.4f%n", first);
        System.out.printf(Locale.ROOT, "SCAN_SECONDS=%.4f%n", median);
    }

    static long bytes(Path model) throws IOException {
        if (!Files.isDirectory(model)) return Files.size(model);
        long total = 0;
        try (Stream<Path> s = Files.list(model)) {
            for (Path p : (Iterable<Path>) s::iterator) if (Files.isRegularFile(p)) total += Files.size(p);
        }
        return total;
    }

    private static double[] round(double[] v) {
        double[] r = new double[v.length];
        for (int i = 0; i < v.length; i++) r[i] = Math.round(v[i] * 1000) / 1000.0;
        return r;
    }
}
