package dev.sparseprof.model;

import dev.sparseprof.util.DType;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * An FP4 (E2M1) weight with block scales, as the Hugging Face checkpoints quantized for Blackwell's
 * FP4 tensor cores store it, seen as the GEMM matrix A ({@code [out, in]}): codes in uint8
 * {@code [out, in / 2]}, element {@code 2j} in the low nibble of byte j (compressed-tensors'
 * {@code pack_fp4_to_uint8}), each block of {@code in / scale columns} elements under one scale.
 * <ul>
 * <li>{@link Form#NVFP4}, compressed-tensors' {@code nvfp4-pack-quantized} (llm-compressor):
 *     {@code P.weight_packed}, {@code P.weight_scale} fp8 E4M3 {@code [out, in / 16]},
 *     {@code P.weight_global_scale} fp32; an element is {@code E2M1·(scale / global_scale)}
 *     (compressed-tensors' {@code dequantize} divides the block scale by the global one);</li>
 * <li>{@link Form#NVFP4_MODELOPT}, NVIDIA ModelOpt's NVFP4 (TensorRT-LLM's and vLLM's
 *     {@code modelopt} checkpoints): {@code P.weight}, {@code P.weight_scale} fp8 E4M3
 *     {@code [out, in / 16]}, {@code P.weight_scale_2} fp32; {@code E2M1·scale·scale_2};</li>
 * <li>{@link Form#MXFP4}, compressed-tensors' {@code mxfp4-pack-quantized}: {@code P.weight_packed},
 *     {@code P.weight_scale} uint8 E8M0 {@code [out, in / 32]}; {@code E2M1·2^(e - 127)} ({@link Mxfp4}).</li>
 * </ul>
 * The codes 0 and 8 (±0) are exactly 0.0f, so a pruned zero stays zero. Rows are dequantized from
 * the mapped file on demand.
 */
final class Fp4Matrix extends DecodedMatrix implements EncodedWeights {
    /** Which checkpoint layout the tensors follow. */
    enum Form { NVFP4, NVFP4_MODELOPT, MXFP4 }

    private final Form form;
    private final Tensor codes;
    private final Tensor scales;
    private final float global;
    private final int block;

    /** @throws IllegalArgumentException naming the tensor whose shape or type does not fit the others */
    Fp4Matrix(Form form, Tensor codes, Tensor scales, Tensor global) {
        long[] c = codes.shape();
        long[] s = scales.shape();
        if (codes.dtype() != DType.U8 || c.length != 2 || c[0] > Integer.MAX_VALUE || 2 * c[1] > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(codes.name() + " " + codes.dtype().label() + Arrays.toString(c) + " is not uint8 [out, in / 2]");
        }
        super((int) c[0], (int) (2 * c[1]));
        DType scaleType = form == Form.MXFP4 ? DType.U8 : DType.F8_E4M3;
        if (scales.dtype() != scaleType || s.length != 2 || s[0] != rows || s[1] <= 0 || cols % s[1] != 0 || cols / s[1] % 2 != 0) {
            throw new IllegalArgumentException(scales.name() + " " + scales.dtype().label() + Arrays.toString(s) + " is not " + scaleType.label()
                    + " [" + rows + ", a divisor of " + cols + " leaving blocks of whole bytes]");
        }
        block = (int) (cols / s[1]);
        if (form != Form.MXFP4 && (global == null || global.elementCount() != 1 || !global.dtype().isFloatingPoint())) {
            throw new IllegalArgumentException("the per-tensor scale " + (global == null ? "is missing" : global.name() + " is not one float"));
        }
        this.form = form;
        this.codes = codes;
        this.scales = scales;
        this.global = form == Form.MXFP4 ? 1 : global.getFloat(0);
    }

    /** 4 bits a code and 8 a block scale: 4.5 for NVFP4's 16-element blocks, 4.25 for MXFP4's 32. */
    @Override
    public double storedBitsPerWeight() {
        return 4 + 8.0 / block;
    }

    @Override
    public void copyRow(int row, float[] dst, int offset) {
        checkRow(row);
        int blocks = cols / block;
        long at = (long) row * (cols / 2);
        for (int b = 0; b < blocks; b++) {
            float scale = scale(scales.data().get(ValueLayout.JAVA_BYTE, (long) row * blocks + b));
            int o = offset + b * block;
            for (int j = 0; j < block / 2; j++) {
                int packed = codes.data().get(ValueLayout.JAVA_BYTE, at + (long) b * (block / 2) + j) & 0xff;
                dst[o + 2 * j] = value(packed & 0xf, scale);
                dst[o + 2 * j + 1] = value(packed >>> 4, scale);
            }
        }
    }

    /** A block's scale from its stored byte, the per-tensor scale applied. */
    private float scale(byte stored) {
        return switch (form) {
            case NVFP4 -> Fp8.e4m3ToFloat(stored) / global;
            case NVFP4_MODELOPT -> Fp8.e4m3ToFloat(stored) * global;
            case MXFP4 -> Math.scalb(1.0f, (stored & 0xff) - 127);
        };
    }

    private static float value(int code, float scale) {
        float v = Mxfp4.e2m1(code);
        return v == 0 ? 0.0f : v * scale;
    }

    /**
     * The FP4 weights among {@code tensors}: each uint8 {@code P.weight_packed} with its
     * {@code P.weight_scale} (and, fp8-scaled, {@code P.weight_global_scale}), and each uint8
     * {@code P.weight} with an fp8 {@code P.weight_scale} and a {@code P.weight_scale_2}, is the LINEAR
     * layer {@code P.weight}, multiplied in bf16 (A100, H100 and H200 have no FP4 tensor cores: their FP4
     * kernels, Marlin's among them, widen the codes to 16 bits, W4A16) and priced at its {@link #storedBitsPerWeight}. A set
     * that does not hold together is named in {@code faults}; {@code claimed} receives the names of
     * every tensor a set stores.
     */
    static List<GemmLayer> layers(List<Tensor> tensors, Map<String, Tensor> byName, List<String> faults, List<String> claimed) {
        List<GemmLayer> layers = new ArrayList<>();
        for (Tensor t : tensors) {
            if (t.dtype() != DType.U8) continue;
            String name = t.name();
            boolean packed = name.endsWith(".weight_packed");
            if (!packed && !name.endsWith(".weight")) continue;
            String prefix = name.substring(0, name.lastIndexOf('.'));
            Tensor scale = byName.get(prefix + ".weight_scale");
            Tensor global = byName.get(prefix + (packed ? ".weight_global_scale" : ".weight_scale_2"));
            if (scale == null || !packed && (global == null || scale.dtype() != DType.F8_E4M3)) continue;
            Form form = !packed ? Form.NVFP4_MODELOPT : scale.dtype() == DType.U8 ? Form.MXFP4 : Form.NVFP4;
            claimed.addAll(List.of(name, prefix + ".weight_scale", prefix + (packed ? ".weight_global_scale" : ".weight_scale_2")));
            try {
                Fp4Matrix view = new Fp4Matrix(form, t, scale, global);
                layers.add(new GemmLayer(prefix + ".weight", name, LayerKind.LINEAR, view.rows, view.cols, 1, view, 1, false, DType.BF16));
            } catch (IllegalArgumentException e) {
                faults.add(prefix + ": " + e.getMessage());
            }
        }
        return layers;
    }
}
