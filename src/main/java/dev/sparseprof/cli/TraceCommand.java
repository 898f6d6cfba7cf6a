package dev.sparseprof.cli;

import dev.sparseprof.kernel.GpuGrid;
import dev.sparseprof.kernel.GpuTraceRun;
import dev.sparseprof.kernel.Kernels;
import dev.sparseprof.kernel.Partitions;
import dev.sparseprof.kernel.SpmmKernel;
import dev.sparseprof.kernel.TracedRun;
import dev.sparseprof.measure.Pruning;
import dev.sparseprof.model.GemmLayer;
import dev.sparseprof.model.Model;
import dev.sparseprof.report.TextTable;
import dev.sparseprof.trace.AccessKind;
import dev.sparseprof.trace.ArrayRole;
import dev.sparseprof.trace.CountingSink;
import dev.sparseprof.trace.TeeSink;
import dev.sparseprof.trace.TraceFiles;
import dev.sparseprof.trace.TraceSink;
import dev.sparseprof.util.Checks;
import dev.sparseprof.util.MatrixView;
import dev.sparseprof.util.SparseprofException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code sparseprof trace [MODEL] --layer NAME --format F --batch N --out FILE}: runs the traced
 * twin of a kernel on one layer and writes its memory accesses (din, extended din, or the binary
 * {@code .sptr}, each optionally {@code .gz}); with {@code --threads T > 1}, one file per thread,
 * {@code FILE} with {@code .t0}, {@code .t1}, ... before its extensions; with {@code --gpu-sms S},
 * the GPU-style coalesced stream instead, one file per SM ({@code .sm0}, ...).
 */
@Command(name = "trace", mixinStandardHelpOptions = true,
        description = "Write the memory-access trace of a kernel on one layer (din[.gz], dinx, sptr), one file per thread.")
final class TraceCommand implements Callable<Integer> {
    @Mixin CommonOptions common;
    @Spec CommandSpec spec;

    @Mixin ModelArgument model;

    @Option(names = "--layer", required = true, paramLabel = "NAME", description = "The layer to trace.")
    String layer;

    @Option(names = "--format", required = true, paramLabel = "F", description = "Kernel: ${COMPLETION-CANDIDATES}.",
            completionCandidates = MeasureCommand.KernelNames.class)
    String format;

    @Option(names = "--batch", required = true, paramLabel = "N", description = "Columns N of the dense operand.")
    int batch;

    @Option(names = "--out", required = true, paramLabel = "FILE", description = "FILE.din[.gz], FILE.dinx[.gz] or FILE.sptr[.gz].")
    Path out;

    @Option(names = "--threads", defaultValue = "1", paramLabel = "T", description = "Threads (one trace each). Default ${DEFAULT-VALUE}.")
    int threads;

    @Option(names = "--partition", defaultValue = "nnz", paramLabel = "P", description = "static, nnz or merge. Default ${DEFAULT-VALUE}.")
    String partition;

    @Option(names = "--sparsity", paramLabel = "S", description = "Prune the layer in memory first (magnitude) to sparsity S.")
    Double sparsity;

    @Option(names = "--gpu-sms", paramLabel = "S",
            description = "Instead of the CPU kernel: the GPU-style stream (warps over N, 32-byte sectors) of csr or dense, one file per SM.")
    Integer gpuSms;

    @Option(names = "--base", defaultValue = "0x10000000", paramLabel = "ADDR", description = "Address of the first array. Default ${DEFAULT-VALUE}.")
    String base;

    @Option(names = "--align", defaultValue = "4096", paramLabel = "BYTES", description = "Alignment of every array. Default ${DEFAULT-VALUE}.")
    int alignBytes;

    @Override
    public Integer call() {
        Checks.positive(batch, "--batch");
        Checks.positive(threads, "--threads");
        if (sparsity != null) Checks.fraction(sparsity, "--sparsity");
        try {
            TraceFiles.formatForName(out);
        } catch (SparseprofException e) {
            throw new SparseprofException("--out " + e.getMessage(), e);
        }
        Outputs.checkFolder("--out", out.toString());
        FormatNames.requireKernel(format, "--format");
        SpmmKernel<?> kernel = Kernels.byName(format);
        TracedRun.Settings settings = new TracedRun.Settings(batch, threads, Partitions.byName(partition), parseAddress(base), alignBytes);
        PrintWriter w = spec.commandLine().getOut();
        try (Model m = model.open()) {
            GemmLayer l = LayerSelection.one(m, layer, "--layer");
            MatrixView view = sparsity == null ? l.matrix() : Pruning.magnitude(l.name(), l.matrix(), sparsity);
            int streams = gpuSms != null ? Checks.positive(gpuSms, "--gpu-sms") : threads;
            String tag = gpuSms != null ? ".sm" : ".t";
            List<Path> files = new ArrayList<>();
            for (int t = 0; t < streams; t++) files.add(streams == 1 ? out : threadFile(out, tag, t));
            CountingSink[] counts = new CountingSink[streams];
            TraceSink[] sinks = new TraceSink[streams];
            Runnable body = gpuSms != null
                    ? () -> GpuTraceRun.trace(kernel.name(), view, new GpuGrid(gpuSms, 4, 32), settings, sinks)
                    : () -> TracedRun.trace(kernel, view, settings, sinks);
            writeAll(files, 0, sinks, counts, body);
            w.print(summary(l, kernel.name(), files, counts));
        }
        return Main.EXIT_OK;
    }

    /** Opens files[t..] one inside the other (each written whole or not at all), then traces into all. */
    private static void writeAll(List<Path> files, int t, TraceSink[] sinks, CountingSink[] counts, Runnable body) {
        if (t == files.size()) {
            body.run();
            return;
        }
        TraceFiles.write(files.get(t), sink -> {
            counts[t] = new CountingSink();
            sinks[t] = new TeeSink(sink, counts[t]);
            writeAll(files, t + 1, sinks, counts, body);
        });
    }

    /** {@code out.din.gz} -> {@code out.t3.din.gz} (tag {@code .t}, stream 3). */
    static Path threadFile(Path out, String tag, int stream) {
        String name = out.getFileName().toString();
        int dot = name.indexOf('.');
        String threaded = dot < 0 ? name + tag + stream : name.substring(0, dot) + tag + stream + name.substring(dot);
        return out.resolveSibling(threaded);
    }

    private static long parseAddress(String text) {
        try {
            long v = text.startsWith("0x") || text.startsWith("0X") ? Long.parseLong(text.substring(2), 16) : Long.parseLong(text);
            return Checks.nonNegative(v, "--base");
        } catch (NumberFormatException e) {
            throw new SparseprofException("--base: not an address: '" + text + "'");
        }
    }

    private static String summary(GemmLayer l, String kernel, List<Path> files, CountingSink[] counts) {
        TextTable t = new TextTable("file", "array", "reads", "read bytes", "writes", "write bytes").rightAlign(2, 3, 4, 5);
        for (int i = 0; i < files.size(); i++) {
            for (ArrayRole role : ArrayRole.values()) {
                long reads = counts[i].count(AccessKind.READ, role);
                long writes = counts[i].count(AccessKind.WRITE, role);
                if (reads + writes == 0) continue;
                t.row(files.get(i).getFileName(), role.label(), reads, counts[i].bytes(AccessKind.READ, role), writes,
                        counts[i].bytes(AccessKind.WRITE, role));
            }
        }
        return "trace of " + kernel + " on " + l.name() + " (" + l.rows() + "x" + l.cols() + ")\n" + t.render();
    }
}
