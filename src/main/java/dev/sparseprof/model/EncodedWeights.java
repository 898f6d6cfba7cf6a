package dev.sparseprof.model;

/**
 * A weight view that decodes a block-quantized encoding (GGUF block types, MXFP4, ONNX MatMulNBits):
 * what the file holds per weight, scales and zero points included, which is what a kernel that
 * multiplies the encoding as it is stored reads. Q4_0 keeps a 2-byte scale per 32 weights: 4.5 bits.
 */
interface EncodedWeights {
    /** Stored bits per weight, block scales and zero points included. */
    double storedBitsPerWeight();

    /** The bits per weight of {@code weights} weights whose encoding is {@code stored} (null entries: absent tensors). */
    static double bitsOver(long weights, Tensor... stored) {
        double bytes = 0;
        for (Tensor t : stored) if (t != null) bytes += (double) t.elementCount() * t.dtype().sizeBytes();
        return 8 * bytes / weights;
    }
}
