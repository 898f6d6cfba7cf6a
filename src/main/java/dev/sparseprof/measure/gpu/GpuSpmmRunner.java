package dev.sparseprof.measure.gpu;

import dev.sparseprof.measure.Timing;
import dev.sparseprof.sparse.BsrMatrix;
import dev.sparseprof.sparse.CsrMatrix;
import dev.sparseprof.util.SparseprofException;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Times the project's CUDA kernels on one layer's weight: {@code C[rows x batch] = W[rows x cols] *
 * X[cols x batch]} with random activations X, checks the result against a CPU reference, and
 * returns a {@link GpuMeasurement}. This is the runner API behind {@code sparseprof measure
 * --device gpu}: open one with {@link #open(GpuRunSettings)} (a one-line
 * {@link GpuUnavailableException} when there is no GPU), call one method per layer and kernel,
 * close it.
 *
 * <p>Shapes the tensor-core kernels cannot take directly are padded with zeros (rows to 16,
 * columns to 16 or 32, batch to 8); times include the padding, the error check excludes it.
 */
public final class GpuSpmmRunner implements AutoCloseable {
    private static final int BLOCK_THREADS = 128;
    private final GpuSession session;
    private final GpuRunSettings settings;

    private GpuSpmmRunner(GpuSession session, GpuRunSettings settings) {
        this.session = session;
        this.settings = settings;
    }

    public static GpuSpmmRunner open(GpuRunSettings settings) {
        return new GpuSpmmRunner(GpuSession.open(), settings);
    }

    public GpuDevice device() {
        return session.device();
    }

    /** CSR row-split SpMM (fp32). */
    public GpuMeasurement csr(String layer, CsrMatrix w, int batch) {
        int m = w.rows();
        int k = w.cols();
        float[] x = activations(k, batch);
        DeviceBuffer rp = session.upload(w.rowPointers());
        DeviceBuffer ci = session.upload(w.columnIndices());
        DeviceBuffer v = session.upload(w.values());
        DeviceBuffer b = session.upload(x);
        DeviceBuffer c = session.allocate(4L * m * batch);
        int warps = BLOCK_THREADS / 32;
        double[] t = session.time(() -> session.launch(GpuKernel.CSR_ROWSPLIT, ceil(m, warps), 1, BLOCK_THREADS, 1,
                m, batch, rp, ci, v, b, c), settings.warmup(), settings.reps());
        float[] got = session.downloadFloats(c, m * batch);
        double err = check(got, w.toDense(), m, k, x, batch);
        return result(GpuKernel.CSR_ROWSPLIT, layer, m, k, w.nnz(), batch, t, err);
    }

    /** Block rows the BSR kernel keeps in registers per thread. */
    public static final int MAX_BSR_BLOCK_ROWS = 16;

    /** BSR SpMM (fp32); nnz counts the stored block entries (zero fill included: the kernel multiplies them). */
    public GpuMeasurement bsr(String layer, BsrMatrix w, int batch) {
        int r = w.shape().rows();
        int cb = w.shape().cols();
        if (r > MAX_BSR_BLOCK_ROWS) throw new SparseprofException("bsr on GPU: block rows " + r + " > " + MAX_BSR_BLOCK_ROWS);
        int m = w.rows();
        int k = w.cols();
        float[] x = activations(k, batch);
        DeviceBuffer rp = session.upload(w.blockRowPointers());
        DeviceBuffer bc = session.upload(w.blockColumnIndices());
        DeviceBuffer bv = session.upload(w.values());
        DeviceBuffer b = session.upload(x);
        DeviceBuffer c = session.allocate(4L * m * batch);
        int nBlocks = w.blockRowPointers().length - 1;
        double[] t = session.time(() -> session.launch(GpuKernel.BSR, nBlocks, ceil(batch, BLOCK_THREADS), BLOCK_THREADS, 1,
                m, k, nBlocks, r, cb, batch, rp, bc, bv, b, c), settings.warmup(), settings.reps());
        float[] got = session.downloadFloats(c, m * batch);
        double err = check(got, w.toCsr().toDense(), m, k, x, batch);
        return result(GpuKernel.BSR, layer, m, k, (long) w.blockCount() * r * cb, batch, t, err);
    }

    /** Dense fp32 tiled GEMM on CUDA cores: the baseline of the fp32 sparse kernels. */
    public GpuMeasurement denseFp32(String layer, float[] w, int m, int k, int batch) {
        checkShape(w, m, k);
        float[] x = activations(k, batch);
        DeviceBuffer a = session.upload(w);
        DeviceBuffer b = session.upload(x);
        DeviceBuffer c = session.allocate(4L * m * batch);
        double[] t = session.time(() -> session.launch(GpuKernel.DENSE_TILED, ceil(batch, 16), ceil(m, 16), 16, 16,
                m, batch, k, a, b, c), settings.warmup(), settings.reps());
        float[] got = session.downloadFloats(c, m * batch);
        return result(GpuKernel.DENSE_TILED, layer, m, k, (long) m * k, batch, t, check(got, w, m, k, x, batch));
    }

    /** Dense fp16 tensor-core GEMM ({@code mma.sync m16n8k16}): the baseline of the 2:4 kernel. */
    public GpuMeasurement denseF16(String layer, float[] w, int m, int k, int batch) {
        return tensorCore(GpuKernel.DENSE_MMA_F16, layer, w, m, k, batch);
    }

    /** 2:4 GEMM on Sparse Tensor Cores ({@code mma.sp m16n8k32}); W is pruned to 2:4 by magnitude if it is not 2:4. */
    public GpuMeasurement sparse24(String layer, float[] w, int m, int k, int batch) {
        return tensorCore(GpuKernel.SPARSE24_MMA, layer, w, m, k, batch);
    }

    private GpuMeasurement tensorCore(GpuKernel kernel, String layer, float[] w, int m, int k, int batch) {
        checkShape(w, m, k);
        boolean sparse = kernel == GpuKernel.SPARSE24_MMA;
        int mp = roundUp(m, 16);
        int kp = roundUp(k, sparse ? 32 : 16);
        int np = roundUp(batch, 8);
        float[] wp = pad(w, m, k, mp, kp);
        float[] x = activations(k, batch);
        float[] xt = new float[np * kp]; // X transposed (column-major K x N), padded
        for (int i = 0; i < k; i++) {
            for (int j = 0; j < batch; j++) xt[j * kp + i] = x[i * batch + j];
        }
        float[] effectiveW;
        DeviceBuffer a;
        DeviceBuffer meta = null;
        if (sparse) {
            Sparse24Operand op = Sparse24Packer.pack(wp, mp, kp);
            effectiveW = Sparse24Packer.unpack(op);
            a = session.upload(op.values());
            meta = session.upload(op.metadata());
        } else {
            effectiveW = roundToHalf(wp);
            a = session.upload(toHalf(wp));
        }
        DeviceBuffer bt = session.upload(toHalf(xt));
        DeviceBuffer c = session.allocate(4L * mp * np);
        int warps = (mp / 16) * (np / 8);
        int grid = ceil(warps, BLOCK_THREADS / 32);
        DeviceBuffer metaBuf = meta;
        Runnable launch = sparse
                ? () -> session.launch(kernel, grid, 1, BLOCK_THREADS, 1, mp, np, kp, a, metaBuf, bt, c)
                : () -> session.launch(kernel, grid, 1, BLOCK_THREADS, 1, mp, np, kp, a, bt, c);
        double[] t = session.time(launch, settings.warmup(), settings.reps());
        float[] got = session.downloadFloats(c, mp * np);
        long nnz = sparse ? (long) m * k / 2 : (long) m * k;
        if ((long) mp * kp * np > settings.verifyLimitMacs()) return result(kernel, layer, m, k, nnz, batch, t, Double.NaN);
        float[] xh = new float[kp * np];
        for (int i = 0; i < kp; i++) {
            for (int j = 0; j < np; j++) xh[i * np + j] = Float.float16ToFloat(Float.floatToFloat16(xt[j * kp + i]));
        }
        double err = relativeError(got, reference(effectiveW, mp, kp, xh, np), m, batch, np);
        return result(kernel, layer, m, k, nnz, batch, t, err);
    }

    private GpuMeasurement result(GpuKernel kernel, String layer, int m, int k, long nnz, int batch, double[] seconds, double err) {
        double[] s = seconds.clone();
        Arrays.sort(s);
        Timing t = new Timing(s.length, quantile(s, 0.5), s[0], s[s.length - 1], quantile(s, 0.25), quantile(s, 0.75), 1.0);
        return new GpuMeasurement(kernel.key(), layer, m, k, nnz, batch, t, 2.0 * nnz * batch / t.medianSeconds() / 1e9, err,
                session.device().name());
    }

    /** Linear interpolation between the closest ranks of sorted samples. */
    private static double quantile(double[] sorted, double q) {
        double pos = q * (sorted.length - 1);
        int lo = (int) Math.floor(pos);
        int hi = Math.min(sorted.length - 1, lo + 1);
        return sorted[lo] + (pos - lo) * (sorted[hi] - sorted[lo]);
    }

    /** The relative error against the CPU reference, or NaN when the product is above the verification limit. */
    private double check(float[] got, float[] denseW, int m, int k, float[] x, int batch) {
        if ((long) m * k * batch > settings.verifyLimitMacs()) return Double.NaN;
        return relativeError(got, reference(denseW, m, k, x, batch), m, batch, batch);
    }

    private float[] activations(int k, int batch) {
        SplittableRandom rnd = new SplittableRandom(settings.seed());
        float[] x = new float[k * batch];
        for (int i = 0; i < x.length; i++) x[i] = (float) (rnd.nextDouble() * 2 - 1);
        return x;
    }

    /** {@code W[m x k] * X[k x n]}, both row-major, in double. */
    static float[] reference(float[] w, int m, int k, float[] x, int n) {
        float[] c = new float[m * n];
        double[] row = new double[n];
        for (int i = 0; i < m; i++) {
            Arrays.fill(row, 0);
            for (int p = 0; p < k; p++) {
                double a = w[i * k + p];
                if (a == 0) continue;
                for (int j = 0; j < n; j++) row[j] += a * x[p * n + j];
            }
            for (int j = 0; j < n; j++) c[i * n + j] = (float) row[j];
        }
        return c;
    }

    /** max |got - ref| / max |ref| over the first {@code rows x cols} of row-major arrays with row stride {@code stride}. */
    static double relativeError(float[] got, float[] ref, int rows, int cols, int stride) {
        double maxRef = 0;
        double maxDiff = 0;
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < cols; j++) {
                double r = ref[i * stride + j];
                maxRef = Math.max(maxRef, Math.abs(r));
                maxDiff = Math.max(maxDiff, Math.abs(got[i * stride + j] - r));
            }
        }
        return maxRef == 0 ? maxDiff : maxDiff / maxRef;
    }

    private static void checkShape(float[] w, int m, int k) {
        if (m <= 0 || k <= 0 || (long) m * k != w.length) {
            throw new SparseprofException("gpu: weight has " + w.length + " values, not " + m + " x " + k);
        }
    }

    static float[] pad(float[] w, int m, int k, int mp, int kp) {
        if (m == mp && k == kp) return w;
        float[] out = new float[mp * kp];
        for (int i = 0; i < m; i++) System.arraycopy(w, i * k, out, i * kp, k);
        return out;
    }

    private static short[] toHalf(float[] v) {
        short[] h = new short[v.length];
        for (int i = 0; i < v.length; i++) h[i] = Float.floatToFloat16(v[i]);
        return h;
    }

    private static float[] roundToHalf(float[] v) {
        float[] r = new float[v.length];
        for (int i = 0; i < v.length; i++) r[i] = Float.float16ToFloat(Float.floatToFloat16(v[i]));
        return r;
    }

    private static int ceil(int a, int b) {
        return (a + b - 1) / b;
    }

    private static int roundUp(int a, int b) {
        return ceil(a, b) * b;
    }

    @Override
    public void close() {
        session.close();
    }
}
