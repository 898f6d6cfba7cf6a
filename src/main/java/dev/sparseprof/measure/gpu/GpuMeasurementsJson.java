package dev.sparseprof.measure.gpu;

import dev.sparseprof.measure.MeasurementsFile;
import dev.sparseprof.util.JsonWriter;
import java.util.List;

/**
 * GPU runs in the measurements JSON of {@code sparseprof measure} ({@link MeasurementsFile} reads it:
 * {@code version}, header {@code model, machine, date, javaVersion, command}; {@code results[]} with
 * every key it needs, {@code threads} 1 and {@code imbalance} 1 for one device) plus the GPU's own
 * keys, which that reader skips: {@code device} (top level and per result), {@code kernel},
 * {@code group}, {@code name}, {@code relativeError}. Formats: {@code dense} (fp32 CUDA cores),
 * {@code dense-f16} (fp16 tensor cores), {@code csr}, {@code bsr4x4}, {@code 2:4} (fp16 sparse tensor cores). {@code speedupOverDense} compares with the dense kernel of the same
 * precision on the same layer and batch (fp32 tiled for CSR/BSR, fp16 tensor cores for 2:4).
 * {@code effectiveGBps} counts each operand once (compulsory traffic).
 */
public final class GpuMeasurementsJson {
    private GpuMeasurementsJson() {}

    public static String write(String model, GpuDevice device, String date, String command, List<GpuCase> cases,
                               List<GpuMeasurement> results) {
        if (cases.size() != results.size()) throw new IllegalArgumentException("one result per case");
        JsonWriter w = new JsonWriter();
        w.beginObject();
        w.field("version", MeasurementsFile.VERSION);
        w.field("model", model);
        w.field("machine", device.name() + " (sm_" + device.computeMajor() + device.computeMinor() + ", "
                + device.multiprocessors() + " SMs, driver " + device.driverVersion() + ")");
        w.field("date", date);
        w.field("javaVersion", System.getProperty("java.version"));
        w.field("command", command);
        w.field("device", "gpu");
        w.name("results").beginArray();
        for (int i = 0; i < results.size(); i++) {
            GpuCase c = cases.get(i);
            GpuMeasurement m = results.get(i);
            w.beginObject();
            w.field("name", c.name());
            w.field("group", c.group());
            w.field("layer", c.layer());
            w.field("format", format(c.kernel()));
            w.field("kernel", m.kernel());
            w.field("device", "gpu");
            w.field("batch", m.batch());
            w.field("threads", 1);
            w.field("repetitions", m.timing().repetitions());
            w.field("medianSeconds", m.medianSeconds());
            w.field("q1Seconds", m.timing().q1Seconds());
            w.field("q3Seconds", m.timing().q3Seconds());
            w.field("gflops", m.gflops());
            double dense = denseSeconds(c, cases, results);
            w.field("speedupOverDense", Double.isNaN(dense) ? Double.NaN : dense / m.medianSeconds());
            w.field("rows", m.rows());
            w.field("cols", m.cols());
            w.field("nnz", m.nnz());
            w.field("sparsity", 1.0 - (double) m.nnz() / ((long) m.rows() * m.cols()));
            w.field("minSeconds", m.timing().minSeconds());
            w.field("maxSeconds", m.timing().maxSeconds());
            w.field("imbalance", m.timing().imbalance());
            w.field("effectiveGBps", compulsoryBytes(c, m) / m.medianSeconds() / 1e9);
            w.field("partition", partition(c.kernel()));
            w.field("relativeError", m.relativeError());
            w.endObject();
        }
        w.endArray().endObject();
        return w.toString();
    }

    static String format(GpuKernel k) {
        return switch (k) {
            case CSR_ROWSPLIT -> "csr";
            case BSR -> "bsr4x4";
            case DENSE_TILED -> "dense";
            case DENSE_MMA_F16 -> "dense-f16";
            case SPARSE24_MMA -> "2:4";
        };
    }

    static String partition(GpuKernel k) {
        return switch (k) {
            case CSR_ROWSPLIT -> "warp-per-row";
            case BSR -> "block-per-block-row";
            case DENSE_TILED -> "tile-16x16";
            case DENSE_MMA_F16, SPARSE24_MMA -> "warp-per-16x8-tile";
        };
    }

    /** The dense baseline's median on the same layer and batch, NaN when it was not run. */
    private static double denseSeconds(GpuCase c, List<GpuCase> cases, List<GpuMeasurement> results) {
        GpuKernel baseline = c.kernel() == GpuKernel.SPARSE24_MMA || c.kernel() == GpuKernel.DENSE_MMA_F16
                ? GpuKernel.DENSE_MMA_F16 : GpuKernel.DENSE_TILED;
        for (int i = 0; i < cases.size(); i++) {
            GpuCase d = cases.get(i);
            if (d.kernel() == baseline && d.layer().equals(c.layer()) && d.batch() == c.batch()) return results.get(i).medianSeconds();
        }
        return Double.NaN;
    }

    /** Each operand once: weights (values + indices/metadata), activations, output. */
    static double compulsoryBytes(GpuCase c, GpuMeasurement m) {
        double out = 4.0 * m.rows() * m.batch();
        return switch (c.kernel()) {
            case CSR_ROWSPLIT -> 8.0 * m.nnz() + 4.0 * (m.rows() + 1) + 4.0 * m.cols() * m.batch() + out;
            case BSR -> 4.0 * m.nnz() + 4.0 * m.nnz() / 16 + 4.0 * m.cols() * m.batch() + out;
            case DENSE_TILED -> 4.0 * m.rows() * m.cols() + 4.0 * m.cols() * m.batch() + out;
            case DENSE_MMA_F16 -> 2.0 * m.rows() * m.cols() + 2.0 * m.cols() * m.batch() + out;
            case SPARSE24_MMA -> 2.0 * m.nnz() + m.rows() * (double) m.cols() / 8 + 2.0 * m.cols() * m.batch() + out;
        };
    }
}
