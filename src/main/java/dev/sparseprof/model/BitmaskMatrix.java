package dev.sparseprof.model;

import dev.sparseprof.util.DType;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A weight as compressed-tensors' {@code sparse-bitmask} and {@code sparse-24-bitmask} formats store
 * it (the sparse checkpoints llm-compressor and vLLM write and read): beside no dense tensor, the
 * tensors under one prefix {@code P}:
 * <ul>
 * <li>{@code P.compressed}: the kept values in row order, the weight's dtype (fp8 where the
 *     checkpoint is also fp8-quantized). {@code sparse-bitmask} stores them 1-D; {@code sparse-24-bitmask}
 *     as {@code [rows, cols / 2]}, two of every four (its compressor keeps the two largest
 *     magnitudes of each group, so a group with fewer than two non-zeros keeps a zero);</li>
 * <li>{@code P.bitmask}: uint8 {@code [rows, ceil(cols / 8)]}, numpy's {@code packbits} along the
 *     row with {@code bitorder="little"}: column {@code 8b + j} is bit j of byte b;</li>
 * <li>{@code P.row_offsets}: each row's first value ({@code sparse-bitmask} only: in the 2:4 form
 *     row r starts at {@code r * cols / 2});</li>
 * <li>{@code P.shape}: the dense shape.</li>
 * </ul>
 * A row is rebuilt from the mapped file on demand; a value stored as zero stays zero. The tensors
 * are checked against each other when the view is made: every row's offset is the running sum of
 * the bitmask's set bits (in the 2:4 form every row sets {@code cols / 2}), and the values hold
 * exactly their total.
 */
final class BitmaskMatrix extends DecodedMatrix {
    private final Tensor values;
    private final Tensor bitmask;
    private final long[] offsets;
    private final int rowBytes;

    /**
     * @param rowOffsets {@code P.row_offsets}, or null for the 2:4 form, whose rows each hold {@code cols / 2} values
     * @throws IllegalArgumentException naming what disagrees, where the tensors are not one weight
     */
    BitmaskMatrix(Tensor values, Tensor bitmask, Tensor rowOffsets, Tensor shape) {
        long[] dims = shape.smallInts(8);
        if (dims == null || dims.length != 2 || dims[0] <= 0 || dims[1] <= 0 || dims[0] > Integer.MAX_VALUE || dims[1] > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("shape " + (dims == null ? "unreadable" : Arrays.toString(dims)) + " is not a 2-D weight's");
        }
        super((int) dims[0], (int) dims[1]);
        rowBytes = (cols + 7) / 8;
        if (bitmask.dtype() != DType.U8 && bitmask.dtype() != DType.I8 || bitmask.elementCount() != (long) rows * rowBytes) {
            throw new IllegalArgumentException("bitmask " + bitmask.dtype().label() + Arrays.toString(bitmask.shape()) + " is not " + rows
                    + " rows of " + rowBytes + " bytes");
        }
        boolean twoFour = rowOffsets == null;
        if (!values.dtype().isFloatingPoint() && values.dtype() != DType.I8 || (twoFour ? !twoFourValues(values, rows, cols) : values.rank() != 1)) {
            throw new IllegalArgumentException("compressed values " + values.dtype().label() + Arrays.toString(values.shape()) + " are not "
                    + (twoFour ? "[" + rows + ", " + cols / 2 + "] numbers (the 2:4 form's half of each row)" : "1-D numbers"));
        }
        if (!twoFour && (rowOffsets.dtype().isFloatingPoint() || rowOffsets.elementCount() != rows)) {
            throw new IllegalArgumentException("row_offsets hold " + rowOffsets.elementCount() + " entries for " + rows + " rows");
        }
        offsets = new long[rows];
        long kept = 0;
        for (int r = 0; r < rows; r++) {
            offsets[r] = twoFour ? (long) r * (cols / 2) : rowOffsets.rawLong(r);
            if (offsets[r] != kept) {
                throw new IllegalArgumentException(twoFour
                        ? "row " + (r - 1) + " of the 2:4 bitmask sets " + (kept - offsets[r - 1]) + " bits, not " + cols / 2
                        : "row " + r + " starts at value " + offsets[r] + ", its bitmask says " + kept);
            }
            for (int b = 0; b < rowBytes; b++) kept += Integer.bitCount(bitmask.data().get(ValueLayout.JAVA_BYTE, (long) r * rowBytes + b) & 0xff);
        }
        if (kept != values.elementCount()) throw new IllegalArgumentException("the bitmask sets " + kept + " bits for " + values.elementCount() + " values");
        this.values = values;
        this.bitmask = bitmask;
    }

    /** The 2:4 form's values: {@code [rows, cols / 2]} of a weight whose rows are whole groups of four. */
    private static boolean twoFourValues(Tensor values, int rows, int cols) {
        long[] d = values.shape();
        return cols % 4 == 0 && d.length == 2 && d[0] == rows && d[1] == cols / 2;
    }

    /** The suffixes of the tensors under a weight's prefix. */
    static final String COMPRESSED = ".compressed", BITMASK = ".bitmask", ROW_OFFSETS = ".row_offsets", SHAPE = ".shape";

    /**
     * The bitmask-compressed weights among {@code tensors}: each prefix with its values, bitmask and
     * shape, and its row offsets unless it is the 2:4 form, is the layer {@code P.weight} (or
     * {@code P} where the prefix keeps its {@code .weight}, as older versions wrote), LINEAR, its
     * stored dtype the values'. A set that does not hold together is named in {@code faults} and
     * left out. {@code byName} indexes the same tensors by name.
     */
    static List<GemmLayer> layers(List<Tensor> tensors, Map<String, Tensor> byName, List<String> faults) {
        List<GemmLayer> layers = new ArrayList<>();
        for (Tensor t : tensors) {
            if (!t.name().endsWith(COMPRESSED)) continue;
            String prefix = t.name().substring(0, t.name().length() - COMPRESSED.length());
            Tensor mask = byName.get(prefix + BITMASK);
            Tensor offsets = byName.get(prefix + ROW_OFFSETS);
            Tensor shape = byName.get(prefix + SHAPE);
            if (mask == null || shape == null) continue;
            BitmaskMatrix view;
            try {
                view = new BitmaskMatrix(t, mask, offsets, shape);
            } catch (IllegalArgumentException e) {
                faults.add(prefix + ": " + e.getMessage());
                continue;
            }
            String name = prefix.endsWith(".weight") ? prefix : prefix + ".weight";
            layers.add(new GemmLayer(name, t.name(), LayerKind.LINEAR, view.rows, view.cols, 1, view, 1, false, t.dtype()));
        }
        return layers;
    }

    /**
     * The names of every tensor a bitmask-compressed weight among {@code tensors} stores (values,
     * bitmask, shape, row offsets), whether it decodes or not: none of them is a layer of its own.
     */
    static Set<String> parts(List<Tensor> tensors, Map<String, Tensor> byName) {
        Set<String> parts = new HashSet<>();
        for (Tensor t : tensors) {
            if (!t.name().endsWith(COMPRESSED)) continue;
            String prefix = t.name().substring(0, t.name().length() - COMPRESSED.length());
            if (byName.containsKey(prefix + BITMASK) && byName.containsKey(prefix + SHAPE)) {
                parts.addAll(List.of(t.name(), prefix + BITMASK, prefix + SHAPE, prefix + ROW_OFFSETS));
            }
        }
        return parts;
    }

    @Override
    public void copyRow(int row, float[] dst, int offset) {
        checkRow(row);
        Arrays.fill(dst, offset, offset + cols, 0f);
        long v = offsets[row];
        long at = (long) row * rowBytes;
        for (int b = 0; b < rowBytes; b++) {
            int bits = bitmask.data().get(ValueLayout.JAVA_BYTE, at + b) & 0xff;
            while (bits != 0) {
                int j = Integer.numberOfTrailingZeros(bits);
                dst[offset + 8 * b + j] = values.getFloat(v++);
                bits &= bits - 1;
            }
        }
    }
}
