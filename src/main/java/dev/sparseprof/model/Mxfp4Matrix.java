package dev.sparseprof.model;

import dev.sparseprof.util.DType;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * An MXFP4 weight as gpt-oss's safetensors store it ({@code experts.gate_up_proj_blocks} uint8
 * {@code [E, out, G, 16]} beside {@code _scales} uint8 {@code [E, out, G]}), seen as the GEMM matrix
 * A of all experts' rows: row {@code (e, o)} is that expert's output feature, its {@code G·32}
 * columns the input features. Each 16-byte block holds 32 E2M1 codes, element {@code 2j} in the low
 * nibble of byte j and {@code 2j + 1} in the high one, under the block's E8M0 scale ({@link Mxfp4});
 * transformers' {@code convert_moe_packed_tensors} decodes the same way (then transposes to its
 * {@code [E, in, out]} parameter). Rows are dequantized from the mapped file on demand.
 */
final class Mxfp4Matrix extends DecodedMatrix implements EncodedWeights {
    private static final int BLOCK_BYTES = Mxfp4.BLOCK / 2;
    private final Tensor blocks;
    private final Tensor scales;
    private final int groups;

    /** @throws IllegalArgumentException when the two tensors are not such a pair */
    Mxfp4Matrix(Tensor blocks, Tensor scales) {
        long[] b = blocks.shape();
        if (blocks.dtype() != DType.U8 || scales.dtype() != DType.U8 || b.length < 3
                || b[b.length - 1] != BLOCK_BYTES || !Arrays.equals(Arrays.copyOf(b, b.length - 1), scales.shape())) {
            throw new IllegalArgumentException(blocks.name() + " " + Arrays.toString(b) + " and " + scales.name() + " "
                    + Arrays.toString(scales.shape()) + " are not MXFP4 blocks [..., G, 16] and their scales [..., G]");
        }
        long r = 1;
        for (int i = 0; i < b.length - 2; i++) r *= b[i];
        long cols = b[b.length - 2] * Mxfp4.BLOCK;
        if (r > Integer.MAX_VALUE || cols > Integer.MAX_VALUE) throw new IllegalArgumentException(blocks.name() + " is too large a matrix");
        super((int) r, (int) cols);
        this.blocks = blocks;
        this.scales = scales;
        this.groups = (int) b[b.length - 2];
    }

    /** The suffixes of an MXFP4 weight's two tensors (gpt-oss: {@code experts.gate_up_proj_blocks} and {@code _scales}). */
    private static final String BLOCKS = "_blocks", SCALES = "_scales";

    /**
     * The MXFP4 weights among {@code tensors} ({@link Mxfp4Matrix}): each {@code P_blocks} with its
     * {@code P_scales} is the LINEAR layer {@code P} of all experts' rows, multiplied in bf16 (gpt-oss's
     * MXFP4 MoE kernels widen the codes to bf16 on GPUs without FP4 tensor cores) and priced at its
     * {@link #storedBitsPerWeight}, 4.25 bits.
     * {@code byName} indexes the same tensors by name.
     */
    static List<GemmLayer> layers(List<Tensor> tensors, Map<String, Tensor> byName) {
        List<GemmLayer> layers = new ArrayList<>();
        for (Tensor t : tensors) {
            if (!t.name().endsWith(BLOCKS)) continue;
            String name = t.name().substring(0, t.name().length() - BLOCKS.length());
            Tensor scales = byName.get(name + SCALES);
            if (scales == null) continue;
            Mxfp4Matrix view;
            try {
                view = new Mxfp4Matrix(t, scales);
            } catch (IllegalArgumentException e) {
                continue; // not such a pair: left to the skipped-integer note
            }
            layers.add(new GemmLayer(name, t.name(), LayerKind.LINEAR, view.rows(), view.cols(), 1, view, 1, false, DType.BF16));
        }
        return layers;
    }

    @Override
    public double storedBitsPerWeight() {
        return EncodedWeights.bitsOver((long) rows * cols, blocks, scales);
    }

    @Override
    public void copyRow(int row, float[] dst, int offset) {
        checkRow(row);
        for (int g = 0; g < groups; g++) {
            long block = (long) row * groups + g;
            int e = scales.data().get(ValueLayout.JAVA_BYTE, block) & 0xff;
            long at = block * BLOCK_BYTES;
            int o = offset + g * Mxfp4.BLOCK;
            for (int j = 0; j < BLOCK_BYTES; j++) {
                int packed = blocks.data().get(ValueLayout.JAVA_BYTE, at + j) & 0xff;
                dst[o + 2 * j] = Mxfp4.value(packed & 0xf, e);
                dst[o + 2 * j + 1] = Mxfp4.value(packed >>> 4, e);
            }
        }
    }
}
