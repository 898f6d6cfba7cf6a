package dev.sparseprof.model;

/**
 * A weight view that decodes a block-quantized encoding (GGUF block types, MXFP4, ONNX MatMulNBits):
 * what the file holds per weight, scales and zero points included, which is what a kernel that
 * multiplies the encoding as it is stored reads. Q4_0 keeps a 2-byte scale per 32 weights: 4.5 bits.
 */
interface EncodedWeights {
    /** Stored bits per weight, block scales and zero points included. */
    double storedBitsPerWeight();
}
