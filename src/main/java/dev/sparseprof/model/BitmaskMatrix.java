package dev.sparseprof.model;

import dev.sparseprof.util.DType;
import dev.sparseprof.util.MatrixView;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * A weight as compressed-tensors' {@code sparse-bitmask} and {@code sparse-24-bitmask} formats store
 * it (the sparse checkpoints llm-compressor and vLLM write and read): beside no dense tensor, four
 * tensors under one prefix, {@code P.compressed} (the kept values in row order, 1-D, the weight's
 * dtype), {@code P.bitmask} (uint8 {@code [rows, ceil(cols / 8)]}, numpy's {@code packbits} along the
 * row with {@code bitorder="little"}: column {@code 8b + j} is bit j of byte b), {@code P.row_offsets}
 * (each row's first value) and {@code P.shape} (the dense shape). A row is rebuilt from the mapped
 * file on demand; a value stored as zero (the 2:4 format keeps two slots of every four) stays zero.
 * The four are checked against each other when the view is made: every row's offset is the
 * running sum of the bitmask's set bits, and the values hold exactly their total.
 */
final class BitmaskMatrix implements MatrixView {
    private final Tensor values;
    private final Tensor bitmask;
    private final long[] offsets;
    private final int rows;
    private final int cols;
    private final int rowBytes;

    /** @throws IllegalArgumentException naming what disagrees, where the four are not one weight */
    BitmaskMatrix(Tensor values, Tensor bitmask, Tensor rowOffsets, Tensor shape) {
        long[] dims = shape.smallInts(8);
        if (dims == null || dims.length != 2 || dims[0] <= 0 || dims[1] <= 0 || dims[0] > Integer.MAX_VALUE || dims[1] > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("shape " + (dims == null ? "unreadable" : Arrays.toString(dims)) + " is not a 2-D weight's");
        }
        rows = (int) dims[0];
        cols = (int) dims[1];
        rowBytes = (cols + 7) / 8;
        if (bitmask.dtype() != DType.U8 && bitmask.dtype() != DType.I8 || bitmask.elementCount() != (long) rows * rowBytes) {
            throw new IllegalArgumentException("bitmask " + bitmask.dtype().label() + Arrays.toString(bitmask.shape()) + " is not " + rows
                    + " rows of " + rowBytes + " bytes");
        }
        if (values.rank() != 1 || !values.dtype().isFloatingPoint() && values.dtype() != DType.I8) {
            throw new IllegalArgumentException("compressed values " + values.dtype().label() + Arrays.toString(values.shape()) + " are not 1-D numbers");
        }
        if (rowOffsets.dtype().isFloatingPoint() || rowOffsets.elementCount() != rows) {
            throw new IllegalArgumentException("row_offsets hold " + rowOffsets.elementCount() + " entries for " + rows + " rows");
        }
        offsets = new long[rows];
        long kept = 0;
        for (int r = 0; r < rows; r++) {
            offsets[r] = rowOffsets.rawLong(r);
            if (offsets[r] != kept) throw new IllegalArgumentException("row " + r + " starts at value " + offsets[r] + ", its bitmask says " + kept);
            for (int b = 0; b < rowBytes; b++) kept += Integer.bitCount(bitmask.data().get(ValueLayout.JAVA_BYTE, (long) r * rowBytes + b) & 0xff);
        }
        if (kept != values.elementCount()) throw new IllegalArgumentException("the bitmask sets " + kept + " bits for " + values.elementCount() + " values");
        this.values = values;
        this.bitmask = bitmask;
    }

    /** The suffixes of the four tensors under a weight's prefix. */
    static final String COMPRESSED = ".compressed", BITMASK = ".bitmask", ROW_OFFSETS = ".row_offsets", SHAPE = ".shape";

    /**
     * The bitmask-compressed weights among {@code tensors}: each prefix with all four tensors is the
     * layer {@code P.weight} (or {@code P} where the prefix keeps its {@code .weight}, as older
     * versions wrote), LINEAR, its stored dtype the values'. A set that does not hold together is named
     * in {@code faults} and left out. {@code byName} indexes the same tensors by name.
     */
    static List<GemmLayer> layers(List<Tensor> tensors, Map<String, Tensor> byName, List<String> faults) {
        List<GemmLayer> layers = new ArrayList<>();
        for (Tensor t : tensors) {
            if (!t.name().endsWith(COMPRESSED)) continue;
            String prefix = t.name().substring(0, t.name().length() - COMPRESSED.length());
            Tensor mask = byName.get(prefix + BITMASK);
            Tensor offsets = byName.get(prefix + ROW_OFFSETS);
            Tensor shape = byName.get(prefix + SHAPE);
            if (mask == null || offsets == null || shape == null) continue;
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

    @Override
    public int rows() {
        return rows;
    }

    @Override
    public int cols() {
        return cols;
    }

    @Override
    public void copyRow(int row, float[] dst, int offset) {
        if (row < 0 || row >= rows) throw new IndexOutOfBoundsException("row " + row + " of " + rows);
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
