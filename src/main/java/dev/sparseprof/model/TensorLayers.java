package dev.sparseprof.model;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The layer rule for formats that hold bare tensors (safetensors, npy/npz, Matrix Market), which
 * follow PyTorch's storage order: every 2-D floating-point tensor is a {@link LayerKind#LINEAR}
 * weight stored {@code [out, in]} (A as stored), or an {@link LayerKind#EMBEDDING_GATHER} when its
 * name contains {@code embed}; a 3-D to 5-D floating-point tensor is a convolution weight
 * {@code [out, in, k...]}, im2col's {@code [out, in·k...]} as stored, with N per sample 1 (the
 * file does not say the output size); 1-D tensors (biases, norms) and integer tensors are not layers.
 * A parameter pruned with {@code torch.nn.utils.prune} and saved as {@code P_orig} and {@code P_mask}
 * is the layer {@code P} of the masked weight.
 */
final class TensorLayers {
    private TensorLayers() {}

    /** The suffixes {@code torch.nn.utils.prune} gives a pruned parameter until {@code prune.remove}. */
    static final String ORIG = "_orig", MASK = "_mask";

    /**
     * Every tensor's layer, where it is one. A pruned parameter saved before {@code prune.remove}
     * ({@code P_orig} and {@code P_mask} of one shape) is the one layer {@code P} of the effective
     * weight {@code P_orig * P_mask}; its mask is no layer of its own.
     */
    static List<GemmLayer> of(List<Tensor> tensors) {
        Map<String, Tensor> byName = new HashMap<>();
        for (Tensor t : tensors) byName.put(t.name(), t);
        Set<String> masks = new HashSet<>();
        for (Tensor t : tensors) {
            Tensor mask = maskOf(t, byName);
            if (mask != null) masks.add(mask.name());
        }
        List<GemmLayer> layers = new ArrayList<>();
        for (Tensor t : tensors) {
            if (masks.contains(t.name())) continue;
            Tensor mask = maskOf(t, byName);
            GemmLayer l = mask == null ? of(t) : masked(t, mask);
            if (l != null) layers.add(l);
        }
        return layers;
    }

    /**
     * {@link #of(List)}, and where integer tensors of rank 2 or more are named as weights (GPTQ/AWQ's
     * int32 {@code qweight}, bitsandbytes' packed uint8 {@code weight}, int8 {@code weight}s), which no
     * layer reads, a {@code tensors.skipped} note naming them in {@code metadata}: the numbers leave
     * them out, and say so.
     */
    static List<GemmLayer> of(List<Tensor> tensors, Map<String, String> metadata) {
        List<String> skipped = new ArrayList<>();
        for (Tensor t : tensors) {
            if (!t.dtype().isFloatingPoint() && t.rank() >= 2 && t.name().toLowerCase(Locale.ROOT).contains("weight")) {
                skipped.add(t.name() + " " + t.dtype().name().toLowerCase(Locale.ROOT));
            }
        }
        if (!skipped.isEmpty()) {
            metadata.put("tensors.skipped", skipped.size() + (skipped.size() == 1 ? " integer weight tensor" : " integer weight tensors")
                    + " (packed or quantized: GPTQ/AWQ qweight, bitsandbytes, int8) not decoded, left out of the layers: "
                    + String.join(", ", skipped.subList(0, Math.min(3, skipped.size()))) + (skipped.size() > 3 ? ", ..." : ""));
        }
        return of(tensors);
    }

    /** {@code P_mask} beside {@code P_orig}, of its shape and a floating type, or null. */
    private static Tensor maskOf(Tensor t, Map<String, Tensor> byName) {
        if (!t.name().endsWith(ORIG)) return null;
        Tensor mask = byName.get(t.name().substring(0, t.name().length() - ORIG.length()) + MASK);
        return mask != null && mask.dtype().isFloatingPoint() && Arrays.equals(mask.shape(), t.shape()) ? mask : null;
    }

    private static GemmLayer masked(Tensor orig, Tensor mask) {
        GemmLayer l = of(orig);
        if (l == null) return null;
        String name = orig.name().substring(0, orig.name().length() - ORIG.length());
        TensorMatrix view = ((TensorMatrix) l.matrix()).withMask(TensorMatrix.rowMajor(mask, l.rows(), l.cols()));
        return new GemmLayer(name, orig.name(), kindOf(name, orig.rank()), l.rows(), l.cols(), 1, view);
    }

    static GemmLayer of(Tensor t) {
        if (!t.dtype().isFloatingPoint() || t.rank() < 2 || t.rank() > 5 || t.elementCount() == 0) return null;
        long rows = t.dim(0);
        long cols = t.elementCount() / rows;
        if (rows > Integer.MAX_VALUE || cols > Integer.MAX_VALUE) return null;
        TensorMatrix view = TensorMatrix.rowMajor(t, (int) rows, (int) cols);
        return new GemmLayer(t.name(), t.name(), kindOf(t.name(), t.rank()), (int) rows, (int) cols, 1, view);
    }

    private static LayerKind kindOf(String name, int rank) {
        return rank > 2 ? LayerKind.CONV : name.toLowerCase(Locale.ROOT).contains("embed") ? LayerKind.EMBEDDING_GATHER : LayerKind.LINEAR;
    }
}
