package dev.sparseprof.model;

/**
 * The weight of onnxruntime's {@code com.microsoft.MatMulNBits} (its int4/int8 LLM exports) seen as
 * the GEMM matrix A ({@code N x K}: row n is output feature n), dequantized row by row from the
 * packed tensors: B {@code uint8 [N, k_blocks, blob_size]} holds each row's codes block by block
 * along K, {@code bits} per code, packed low bits first ({@code blob_size = block_size·bits/8});
 * {@code scales [N·k_blocks]} one per block; zero points, per block, either packed the same way
 * ({@code uint8 [N·ceil(k_blocks·bits/8)]}), unpacked in the scales' float type, or absent
 * ({@code 2^(bits-1)}). An element is {@code (code - zero_point)·scale}, and a code equal to its
 * block's zero point is exactly 0.0f whatever the scale.
 */
final class NBitsMatrix extends DecodedMatrix implements EncodedWeights {
    private final Tensor packed;
    private final Tensor scales;
    private final Tensor zeroPoints;
    private final int bits;
    private final int blockSize;
    private final int blocks;
    private final int blobBytes;
    private final int zeroBytesPerRow;

    /**
     * @throws IllegalArgumentException when the tensors' sizes do not follow from N, K, bits and
     *                                  block_size (the reader turns it into a one-line fault)
     */
    NBitsMatrix(Tensor packed, Tensor scales, Tensor zeroPoints, int rows, int cols, int bits, int blockSize) {
        super(rows, cols);
        if (bits != 2 && bits != 4 && bits != 8) throw new IllegalArgumentException("bits " + bits + " (2, 4 or 8 are packed in bytes)");
        if (blockSize < 16 || blockSize > 1 << 20 || Integer.bitCount(blockSize) != 1) {
            throw new IllegalArgumentException("block_size " + blockSize + " (a power of two from 16 to 2^20)");
        }
        if (rows <= 0 || cols <= 0) throw new IllegalArgumentException("N " + rows + ", K " + cols);
        this.blocks = (cols + blockSize - 1) / blockSize;
        this.blobBytes = blockSize * bits / 8;
        if (packed.elementCount() != (long) rows * blocks * blobBytes) {
            throw new IllegalArgumentException("B holds " + packed.elementCount() + " bytes, N x k_blocks x blob_size is " + (long) rows * blocks * blobBytes);
        }
        if (scales.elementCount() != (long) rows * blocks) {
            throw new IllegalArgumentException("scales hold " + scales.elementCount() + " values, N x k_blocks is " + (long) rows * blocks);
        }
        this.zeroBytesPerRow = (blocks * bits + 7) / 8;
        if (zeroPoints != null) {
            long want = zeroPoints.dtype().isFloatingPoint() ? (long) rows * blocks : (long) rows * zeroBytesPerRow;
            if (zeroPoints.elementCount() != want) throw new IllegalArgumentException("zero_points hold " + zeroPoints.elementCount() + " values, not " + want);
        }
        this.packed = packed;
        this.scales = scales;
        this.zeroPoints = zeroPoints;
        this.bits = bits;
        this.blockSize = blockSize;
    }

    @Override
    public double storedBitsPerWeight() {
        return EncodedWeights.bitsOver((long) rows * cols, packed, scales, zeroPoints);
    }

    @Override
    public void copyRow(int row, float[] dst, int offset) {
        checkRow(row);
        int mask = (1 << bits) - 1;
        long rowBase = (long) row * blocks * blobBytes;
        for (int b = 0; b < blocks; b++) {
            float scale = scales.getFloat((long) row * blocks + b);
            float zero = zeroPoint(row, b, mask);
            long blob = rowBase + (long) b * blobBytes;
            int end = Math.min(blockSize, cols - b * blockSize);
            for (int p = 0; p < end; p++) {
                int bit = p * bits;
                int code = (int) (packed.rawLong(blob + (bit >>> 3)) >>> (bit & 7)) & mask;
                dst[offset + b * blockSize + p] = code == zero ? 0.0f : (code - zero) * scale;
            }
        }
    }

    private float zeroPoint(int row, int block, int mask) {
        if (zeroPoints == null) return 1 << (bits - 1);
        if (zeroPoints.dtype().isFloatingPoint()) return zeroPoints.getFloat((long) row * blocks + block);
        int bit = block * bits;
        return (int) (zeroPoints.rawLong((long) row * zeroBytesPerRow + (bit >>> 3)) >>> (bit & 7)) & mask;
    }
}
