package dev.sparseprof.measure.gpu;

import java.util.ArrayList;
import java.util.List;

/**
 * The GPU validation set the device script runs: MiniLM-shaped layers (all-MiniLM-L6-v2: hidden 384,
 * FFN 1536; attention projections 384 x 384, FFN up 1536 x 384, FFN down 384 x 1536) at 128 and 1024
 * tokens with every kernel, and two large GEMMs comparing dense fp16 with 2:4 (4096^3, and the PyTorch
 * semi-structured tutorial's 3072 x 10240 weight with 3072 tokens, where cuSPARSELt gave 1.38x on an
 * A100: hardware-facts.md section 2). {@code quick} keeps one token count and drops the large GEMMs.
 */
public final class GpuCases {
    private GpuCases() {}

    public static List<GpuCase> validationSet(boolean quick) {
        List<GpuCase> cases = new ArrayList<>();
        String[] layers = {"attention.query", "ffn.up", "ffn.down"};
        int[][] shapes = {{384, 384}, {1536, 384}, {384, 1536}};
        int[] batches = quick ? new int[] {128} : new int[] {128, 1024};
        for (int b : batches) {
            for (int i = 0; i < layers.length; i++) {
                int r = shapes[i][0];
                int c = shapes[i][1];
                cases.add(new GpuCase("minilm-gpu", layers[i], r, c, b, GpuKernel.DENSE_TILED, 0));
                cases.add(new GpuCase("minilm-gpu", layers[i], r, c, b, GpuKernel.CSR_ROWSPLIT, 0.7));
                cases.add(new GpuCase("minilm-gpu", layers[i], r, c, b, GpuKernel.CSR_ROWSPLIT, 0.9));
                cases.add(new GpuCase("minilm-gpu", layers[i], r, c, b, GpuKernel.BSR, 0.9));
                cases.add(new GpuCase("minilm-gpu", layers[i], r, c, b, GpuKernel.DENSE_MMA_F16, 0));
                cases.add(new GpuCase("minilm-gpu", layers[i], r, c, b, GpuKernel.SPARSE24_MMA, 0));
            }
        }
        if (!quick) {
            cases.add(new GpuCase("gemm-gpu", "gemm-4096", 4096, 4096, 4096, GpuKernel.DENSE_MMA_F16, 0));
            cases.add(new GpuCase("gemm-gpu", "gemm-4096", 4096, 4096, 4096, GpuKernel.SPARSE24_MMA, 0));
            cases.add(new GpuCase("gemm-gpu", "pytorch-linear-10240-3072", 3072, 10240, 3072, GpuKernel.DENSE_MMA_F16, 0));
            cases.add(new GpuCase("gemm-gpu", "pytorch-linear-10240-3072", 3072, 10240, 3072, GpuKernel.SPARSE24_MMA, 0));
        }
        return List.copyOf(cases);
    }
}
