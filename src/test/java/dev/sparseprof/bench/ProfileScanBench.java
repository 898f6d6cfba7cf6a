package dev.sparseprof.bench;

import dev.sparseprof.model.GemmLayer;
import dev.sparseprof.model.Model;
import dev.sparseprof.model.Models;
import dev.sparseprof.sparse.stats.MatrixScan;
import dev.sparseprof.sparse.stats.ScanOptions;
import dev.sparseprof.util.Median;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The sparsity scan against a plain read of the same file (run by scripts/bench-profile-scan.sh).
 *
 * <p>{@code generate FILE GIB ZERO_FRACTION}: writes a safetensors file of 2-D fp32 layers
 * [8192, 4096] (128 MiB each) with that fraction of exact zeros. {@code scan FILE REPEATS}: times a
 * plain sequential read of the file (FileChannel into a 4 MiB buffer, what {@code cat} does) and
 * the profile's scan (open the model, {@link MatrixScan} over every layer with the default options
 * on all cores), alternating, and prints the median GB/s of each and their ratio.
 */
public final class ProfileScanBench {
    private static final int ROWS = 8192;
    private static final int COLS = 4096;

    private ProfileScanBench() {}

    public static void main(String[] args) throws IOException {
        switch (args[0]) {
            case "generate" -> generate(Path.of(args[1]), Double.parseDouble(args[2]), Double.parseDouble(args[3]));
            case "scan" -> scan(Path.of(args[1]), Integer.parseInt(args[2]));
            default -> throw new IllegalArgumentException("generate FILE GIB ZEROS | scan FILE REPEATS");
        }
    }

    static void generate(Path file, double gib, double zeros) throws IOException {
        long layerBytes = (long) ROWS * COLS * 4;
        int layers = (int) Math.ceil(gib * (1L << 30) / layerBytes);
        StringBuilder h = new StringBuilder("{");
        for (int i = 0; i < layers; i++) {
            if (i > 0) h.append(',');
            h.append(String.format(Locale.ROOT, "\"layer.%d.weight\":{\"dtype\":\"F32\",\"shape\":[%d,%d],\"data_offsets\":[%d,%d]}",
                    i, ROWS, COLS, i * layerBytes, (i + 1) * layerBytes));
        }
        h.append('}');
        while ((h.length() + 8) % 8 != 0) h.append(' ');
        byte[] header = h.toString().getBytes(StandardCharsets.US_ASCII);
        SplittableRandom rnd = new SplittableRandom(42);
        ByteBuffer row = ByteBuffer.allocate(COLS * 4).order(ByteOrder.LITTLE_ENDIAN);
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 22)) {
            out.write(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(header.length).array());
            out.write(header);
            for (long r = 0; r < (long) layers * ROWS; r++) {
                row.clear();
                for (int c = 0; c < COLS; c++) row.putFloat(rnd.nextDouble() < zeros ? 0.0f : (float) rnd.nextGaussian());
                out.write(row.array());
            }
        }
        System.out.printf(Locale.ROOT, "wrote %s: %d layers of %dx%d fp32, %.0f%% zeros, %.2f GiB%n",
                file, layers, ROWS, COLS, zeros * 100, Files.size(file) / (double) (1L << 30));
    }

    static void scan(Path file, int repeats) throws IOException {
        long size = Files.size(file);
        double[] readSeconds = new double[repeats];
        double[] scanSeconds = new double[repeats];
        long nnz = 0;
        ScanOptions options = ScanOptions.DEFAULT.withThreads(Runtime.getRuntime().availableProcessors());
        for (int i = 0; i < repeats; i++) {
            long t0 = System.nanoTime();
            plainRead(file);
            readSeconds[i] = (System.nanoTime() - t0) / 1e9;
            t0 = System.nanoTime();
            nnz = 0;
            try (Model m = Models.open(file)) {
                for (GemmLayer l : m.layers()) nnz += MatrixScan.of(l.matrix(), options).nnz();
            }
            scanSeconds[i] = (System.nanoTime() - t0) / 1e9;
        }
        double read = size / Median.of(readSeconds) / 1e9;
        double scanned = size / Median.of(scanSeconds) / 1e9;
        System.out.printf(Locale.ROOT, "in-JVM plain read: %.2f GB/s (median of %d: %s s)%n", read, repeats, Arrays.toString(round(readSeconds)));
        System.out.printf(Locale.ROOT, "profile scan:      %.2f GB/s (median of %d: %s s), nnz %d, %d threads%n",
                scanned, repeats, Arrays.toString(round(scanSeconds)), nnz, options.threads());
        System.out.printf(Locale.ROOT, "scan / plain read: %.2f%n", scanned / read);
        System.out.printf(Locale.ROOT, "SCAN_GBPS=%.3f%n", scanned);
    }

    private static void plainRead(Path file) throws IOException {
        ByteBuffer buf = ByteBuffer.allocateDirect(1 << 22);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            while (ch.read(buf) >= 0) buf.clear();
        }
    }


    private static double[] round(double[] v) {
        double[] r = new double[v.length];
        for (int i = 0; i < v.length; i++) r[i] = Math.round(v[i] * 1000) / 1000.0;
        return r;
    }
}
