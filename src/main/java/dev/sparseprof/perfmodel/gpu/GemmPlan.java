package dev.sparseprof.perfmodel.gpu;

/**
 * The library's choice for one tensor-core GEMM and what it costs, as {@link GpuGemm} models it.
 *
 * @param tile            the chosen CTA tile ({@code tileLabel} prints it for the element size)
 * @param splitK          K split over this many CTAs per output tile (1: none)
 * @param paddedColumns   N after the library's padding (the sparse path pads tokens)
 * @param ctas            CTAs launched: tiles x splitK
 * @param ctasPerSm       CTAs of this tile resident on one SM at once (occupancy)
 * @param smWaves         CTAs on the busiest SM (ceil(ctas / SMs))
 * @param waveFactor      the busiest SM's work over the mean SM's (>= 1): ceil(ctas / SMs) x SMs / ctas, or for a
 *                        stream-K kernel its K steps dealt to the SMs over their mean
 * @param smSeconds       the busiest SM's time: its CTAs' main loops plus the fills and epilogues that do not overlap
 * @param l2Bytes         bytes the CTAs move between L2 and shared memory (A and B strips, C and split-K partials)
 * @param dramBytesA      A (and its metadata, for 2:4) read from DRAM under the tile schedule and the L2's capacity
 * @param dramBytesMeta   the metadata part of {@code dramBytesA}
 * @param dramBytesB      B read from DRAM
 * @param dramBytesC      C written (and split-K partials that do not stay in the L2)
 * @param kernelSeconds   the GEMM kernel: the largest of the SM, L2 and DRAM times
 * @param extraSeconds    the other kernels of the call (N padding copy, input layout copy, unfused bias, output copy)
 *                        and every kernel's launch
 * @param kernels         kernels per call
 * @param hostSeconds     the runtime's host time per call
 * @param seconds         one call in a stream of back-to-back calls: the slower of the device and the host
 */
public record GemmPlan(CtaTile tile, String tileLabel, int splitK, long paddedColumns, long ctas, int ctasPerSm, long smWaves, double waveFactor,
                       double smSeconds, double l2Bytes, double dramBytesA, double dramBytesMeta, double dramBytesB, double dramBytesC,
                       double kernelSeconds, double extraSeconds, int kernels, double hostSeconds, double seconds) {
    public GemmPlan {
        if (!(waveFactor >= 1)) throw new IllegalArgumentException("GEMM plan " + tileLabel + ": wave factor " + waveFactor);
        if (!(seconds > 0) || !(kernelSeconds > 0) || extraSeconds < 0 || hostSeconds < 0) {
            throw new IllegalArgumentException("GEMM plan " + tileLabel + ": non-positive time");
        }
    }

    public double deviceSeconds() {
        return kernelSeconds + extraSeconds;
    }

    public double dramBytes() {
        return dramBytesA + dramBytesB + dramBytesC;
    }

    /** {@code 128x256x32/3, split-K 2, 2 CTAs/SM, 3 waves}. */
    public String schedule() {
        return tileLabel + (splitK > 1 ? ", split-K " + splitK : "") + ", " + ctas + " CTAs, " + ctasPerSm + " CTA/SM, " + smWaves
                + (smWaves == 1 ? " wave" : " waves");
    }
}
