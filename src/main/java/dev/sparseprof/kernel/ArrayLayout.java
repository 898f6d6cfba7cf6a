package dev.sparseprof.kernel;

import dev.sparseprof.trace.ArrayRole;
import dev.sparseprof.util.Checks;
import dev.sparseprof.util.SparseprofException;
import java.util.EnumMap;
import java.util.Map;

/**
 * Where a traced kernel's arrays lie in the simulated address space: one aligned base address per
 * {@link ArrayRole}, plus a scratch region (packed panels, a transposed B) and the element sizes.
 *
 * <p>Invariant: every base is a multiple of {@code alignmentBytes} (a power of two, at least 4).
 * Addresses are {@code base(role) + index * elementBytes}; the layout does not check that arrays
 * do not overlap, {@link #sequential} builds one where they do not.
 */
public final class ArrayLayout {
    /** Roles laid out by {@link #sequential}, in address order. */
    private static final ArrayRole[] ORDER = {
            ArrayRole.ROW_POINTERS, ArrayRole.COLUMN_INDICES, ArrayRole.VALUES, ArrayRole.METADATA,
            ArrayRole.DENSE_A, ArrayRole.B_GATHER, ArrayRole.C_SCATTER};

    private final long[] baseByRole = new long[ArrayRole.COUNT];
    private final long scratchBase;
    private final int alignmentBytes;
    private final int valueBytes;
    private final int indexBytes;

    /**
     * @param bases base address per role (roles not named get base 0)
     * @param valueBytes size of one stored value of A (4 fp32, 2 fp16/bf16, 8 EJML's fp64); B and C are fp32
     */
    public ArrayLayout(Map<ArrayRole, Long> bases, long scratchBase, int alignmentBytes, int valueBytes, int indexBytes) {
        if (alignmentBytes < 4 || !Checks.isPowerOfTwo(alignmentBytes)) {
            throw new SparseprofException("array layout: alignment must be a power of two >= 4, got " + alignmentBytes);
        }
        if (valueBytes != 1 && valueBytes != 2 && valueBytes != 4 && valueBytes != 8) throw new SparseprofException("array layout: value size " + valueBytes + " bytes");
        if (indexBytes != 1 && indexBytes != 2 && indexBytes != 4) throw new SparseprofException("array layout: index size " + indexBytes + " bytes");
        for (Map.Entry<ArrayRole, Long> e : bases.entrySet()) {
            checkAligned(e.getKey().label(), e.getValue(), alignmentBytes);
            baseByRole[e.getKey().ordinal()] = e.getValue();
        }
        checkAligned("scratch", scratchBase, alignmentBytes);
        this.scratchBase = scratchBase;
        this.alignmentBytes = alignmentBytes;
        this.valueBytes = valueBytes;
        this.indexBytes = indexBytes;
    }

    /**
     * Lays the arrays out one after another from {@code startAddress}, each starting on an
     * {@code alignmentBytes} boundary; {@code sizeBytesByRole} gives each array's size (missing: 0).
     * The scratch region follows the last array.
     */
    public static ArrayLayout sequential(long startAddress, int alignmentBytes, Map<ArrayRole, Long> sizeBytesByRole,
                                         int valueBytes) {
        Checks.nonNegative(startAddress, "array layout start address");
        EnumMap<ArrayRole, Long> bases = new EnumMap<>(ArrayRole.class);
        long next = alignUp(startAddress, alignmentBytes);
        for (ArrayRole role : ORDER) {
            bases.put(role, next);
            next = alignUp(next + Checks.nonNegative(sizeBytesByRole.getOrDefault(role, 0L), role.label() + " size"), alignmentBytes);
        }
        return new ArrayLayout(bases, next, alignmentBytes, valueBytes, 4);
    }

    public long base(ArrayRole role) { return baseByRole[role.ordinal()]; }

    public long scratchBase() { return scratchBase; }

    public int alignmentBytes() { return alignmentBytes; }

    public int valueBytes() { return valueBytes; }

    public int indexBytes() { return indexBytes; }

    /** Address of element {@code index} of A's values. */
    public long valueAddress(long index) { return baseByRole[ArrayRole.VALUES.ordinal()] + index * valueBytes; }

    /** Address of element {@code index} of an int index array (column indices, row pointers, metadata). */
    public long indexAddress(ArrayRole role, long index) { return baseByRole[role.ordinal()] + index * indexBytes; }

    /** Address of fp32 element {@code index} of a dense array (A, B, C). */
    public long floatAddress(ArrayRole role, long index) { return baseByRole[role.ordinal()] + index * Float.BYTES; }

    /** Address of fp32 element {@code index} of the scratch region. */
    public long scratchAddress(long index) { return scratchBase + index * Float.BYTES; }

    static long alignUp(long address, int alignmentBytes) {
        return (address + alignmentBytes - 1) & -(long) alignmentBytes;
    }

    private static void checkAligned(String what, long base, int alignmentBytes) {
        if (base < 0 || (base & (alignmentBytes - 1)) != 0) {
            throw new SparseprofException("array layout: base of " + what + " (" + base + ") is not " + alignmentBytes + "-byte aligned");
        }
    }
}
