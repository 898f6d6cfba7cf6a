package dev.sparseprof.model;

import dev.sparseprof.util.DType;

/**
 * A weight view that decodes a block-quantized encoding (GGUF block types, MXFP4, ONNX MatMulNBits):
 * what the file holds per weight, scales and zero points included, which is what a kernel that
 * multiplies the encoding as it is stored reads. Q4_0 keeps a 2-byte scale per 32 weights: 4.5 bits.
 */
interface EncodedWeights {
    /** Stored bits per weight, block scales and zero points included. */
    double storedBitsPerWeight();

    /**
     * The type weights dequantized at run time are multiplied in: their kernels (exllama, Marlin, AWQ's
     * GEMM, vLLM's, MLX's, AQLM's and HQQ's) widen the codes to the 16-bit type of the scales (or
     * codebooks) and the activations, so the stored dtype the commands price compute and activations in
     * is that type: {@code tensor}'s bf16 or fp16, fp16 where it is wider. The weight bytes come from
     * {@link #storedBitsPerWeight}.
     */
    static DType sixteenBitType(Tensor tensor) {
        return tensor.dtype() == DType.BF16 ? DType.BF16 : DType.F16;
    }

    /** The bits per weight of {@code weights} weights whose encoding is {@code stored} (null entries: absent tensors). */
    static double bitsOver(long weights, Tensor... stored) {
        double bytes = 0;
        for (Tensor t : stored) if (t != null) bytes += (double) t.elementCount() * t.dtype().sizeBytes();
        return 8 * bytes / weights;
    }
}
