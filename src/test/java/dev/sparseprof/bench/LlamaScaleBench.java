package dev.sparseprof.bench;

import dev.sparseprof.hw.HardwareSpec;
import dev.sparseprof.hw.HardwareSpecs;
import dev.sparseprof.model.GemmLayer;
import dev.sparseprof.model.LayerKind;
import dev.sparseprof.perfmodel.FormatModel;
import dev.sparseprof.perfmodel.FormatModels;
import dev.sparseprof.perfmodel.PerfModel;
import dev.sparseprof.perfmodel.SimulatedTraffic;
import dev.sparseprof.perfmodel.Simulation;
import dev.sparseprof.perfmodel.Workload;
import dev.sparseprof.perfmodel.Workloads;
import dev.sparseprof.util.DType;
import dev.sparseprof.util.MatrixView;
import dev.sparseprof.util.Median;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * LLaMA-2-7B at scale (run by scripts/bench-simulate-scale.sh).
 *
 * <p>{@code generate FILE BLOCKS}: writes a LLaMA-2-7B-shaped safetensors checkpoint of
 * {@code BLOCKS} decoder blocks (q/k/v/o 4096x4096, gate/up 11008x4096, down 4096x11008), fp16,
 * random finite values with half of them zero (unstructured, independent per weight), every layer its own random stream.
 * {@code layers SPEC REPEATS}: the simulate path's cost per layer, in memory: for each shape of a
 * block and N in {16, 512, 2048}, the median over REPEATS of the statistics scan
 * ({@link Workloads#of}) and of the estimate of every format against the one dense baseline
 * (default traffic: analytical, memsim-checked), first with a fresh traffic model (the layer's
 * memsim check included) and again with the warm one (a later layer of the same shape: the check
 * is shared), in milliseconds, with the cost per million weights.
 */
public final class LlamaScaleBench {
    private static final String[] NAMES = {"self_attn.q_proj", "self_attn.k_proj", "self_attn.v_proj", "self_attn.o_proj",
            "mlp.gate_proj", "mlp.up_proj", "mlp.down_proj"};
    private static final int[][] SHAPES = {{4096, 4096}, {4096, 4096}, {4096, 4096}, {4096, 4096}, {11008, 4096}, {11008, 4096}, {4096, 11008}};

    private LlamaScaleBench() {}

    public static void main(String[] args) throws IOException {
        switch (args[0]) {
            case "generate" -> generate(Path.of(args[1]), Integer.parseInt(args[2]));
            case "layers" -> layers(HardwareSpecs.load(args[1]), Integer.parseInt(args[2]));
            default -> throw new IllegalArgumentException("generate FILE BLOCKS | layers SPEC REPEATS");
        }
    }

    static void generate(Path file, int blocks) throws IOException {
        StringBuilder h = new StringBuilder("{");
        long offset = 0;
        for (int b = 0; b < blocks; b++) {
            for (int i = 0; i < NAMES.length; i++) {
                long bytes = 2L * SHAPES[i][0] * SHAPES[i][1];
                if (h.length() > 1) h.append(',');
                h.append(String.format(Locale.ROOT, "\"model.layers.%d.%s.weight\":{\"dtype\":\"F16\",\"shape\":[%d,%d],\"data_offsets\":[%d,%d]}",
                        b, NAMES[i], SHAPES[i][0], SHAPES[i][1], offset, offset + bytes));
                offset += bytes;
            }
        }
        h.append('}');
        while (h.length() % 8 != 0) h.append(' ');
        byte[] header = h.toString().getBytes(StandardCharsets.UTF_8);
        Path tmp = file.resolveSibling(file.getFileName() + ".part");
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 22)) {
            out.write(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(header.length).array());
            out.write(header);
            byte[] chunk = new byte[1 << 22];
            for (int b = 0; b < blocks; b++) {
                for (int i = 0; i < NAMES.length; i++) {
                    SplittableRandom rnd = new SplittableRandom(b * 31L + i);
                    long left = 2L * SHAPES[i][0] * SHAPES[i][1];
                    while (left > 0) {
                        int n = (int) Math.min(chunk.length, left);
                        for (int j = 0; j < n; j += 8) {
                            long bits = rnd.nextLong(); // four 16-bit draws: the top bit says zero, the rest a finite fp16 (|x| < 2)
                            for (int q = 0; q < 4 && j + 2 * q < n; q++) {
                                int draw = (int) (bits >>> (16 * q)) & 0xffff;
                                int half = (draw & 0x8000) != 0 ? 0 : ((draw & 0x4000) << 1) | (draw & 0x3bff) | 0x0400;
                                chunk[j + 2 * q] = (byte) half;
                                chunk[j + 2 * q + 1] = (byte) (half >>> 8);
                            }
                        }
                        out.write(chunk, 0, n);
                        left -= n;
                    }
                }
            }
        }
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
        System.out.printf(Locale.ROOT, "wrote %s: %d blocks, %.2f GB%n", file, blocks, (offset + 8 + header.length) / 1e9);
    }

    static void layers(HardwareSpec spec, int repeats) {
        List<FormatModel> formats = new ArrayList<>();
        for (String f : FormatModels.names()) formats.add(FormatModels.byName(f));
        System.out.printf(Locale.ROOT, "%s, fp16, 50%% unstructured, every format; medians of %d (ms)%n", spec.name(), repeats);
        System.out.printf(Locale.ROOT, "%-12s %6s %10s %14s %14s %12s%n", "M x K", "N", "scan", "estimate+check", "estimate", "ms / M weights");
        int[][] distinct = {{4096, 4096}, {11008, 4096}, {4096, 11008}};
        for (int[] s : distinct) {
            float[] a = new float[s[0] * s[1]];
            SplittableRandom rnd = new SplittableRandom(s[0]);
            for (int i = 0; i < a.length; i++) a[i] = rnd.nextBoolean() ? 0 : (float) rnd.nextGaussian();
            GemmLayer layer = new GemmLayer("l", "l", LayerKind.LINEAR, s[0], s[1], 1, MatrixView.of(s[0], s[1], a));
            for (long n : new long[] {16, 512, 2048}) {
                Simulation.Options o = new Simulation.Options(n, DType.F16, Workloads.Pruning.NONE, 0, formats);
                double[] scan = new double[repeats];
                double[] first = new double[repeats];
                double[] warm = new double[repeats];
                for (int r = 0; r < repeats; r++) {
                    long t0 = System.nanoTime();
                    Workload w = Workloads.of(layer, n, DType.F16, Workloads.Pruning.NONE, 0);
                    long t1 = System.nanoTime();
                    PerfModel model = new PerfModel(spec, SimulatedTraffic.checked(300_000));
                    Simulation.run(model, List.of(w), o);
                    long t2 = System.nanoTime();
                    Workload again = Workloads.of(layer, n, DType.F16, Workloads.Pruning.NONE, 0);
                    long t3 = System.nanoTime();
                    Simulation.run(model, List.of(again), o); // a later layer of the same shape: the check is shared
                    long t4 = System.nanoTime();
                    scan[r] = (t1 - t0) / 1e6;
                    first[r] = (t2 - t1) / 1e6;
                    warm[r] = (t4 - t3) / 1e6;
                }
                double total = Median.of(scan) + Median.of(warm);
                System.out.printf(Locale.ROOT, "%-12s %6d %10.1f %14.1f %14.1f %12.2f%n", s[0] + "x" + s[1], n, Median.of(scan), Median.of(first),
                        Median.of(warm), total / (s[0] * (double) s[1] / 1e6));
            }
        }
    }

}
