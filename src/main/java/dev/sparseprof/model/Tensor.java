package dev.sparseprof.model;

import dev.sparseprof.util.DType;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * A named tensor whose elements sit, little-endian and densely packed in C order, in {@code data}
 * (often a memory-mapped slice of the model file, so nothing is copied until asked).
 *
 * <p>Invariant (checked): {@code data.byteSize() == product(shape) * dtype.sizeBytes()}.
 * Quantized tensors carry {@code zeroPoint}: an element is zero when its stored value equals it;
 * {@link #getFloat} returns {@code (q - zeroPoint) * scale}, so zeros stay exactly zero.
 */
public record Tensor(String name, DType dtype, long[] shape, MemorySegment data, double scale, long zeroPoint) {

    public Tensor {
        shape = shape.clone();
        long n = 1;
        for (long d : shape) {
            if (d < 0) throw new ModelFormatException("tensor '" + name + "': negative dimension in " + Arrays.toString(shape));
            n = Math.multiplyExact(n, d);
        }
        long expected = Math.multiplyExact(n, (long) dtype.sizeBytes());
        if (data.byteSize() != expected) {
            throw new ModelFormatException("tensor '" + name + "': " + dtype.label() + Arrays.toString(shape)
                    + " needs " + expected + " bytes, data holds " + data.byteSize());
        }
    }

    /** An unquantized tensor. */
    public Tensor(String name, DType dtype, long[] shape, MemorySegment data) {
        this(name, dtype, shape, data, 1.0, 0);
    }

    /** An fp32 tensor holding a copy of {@code values} (little-endian, on the heap). */
    public static Tensor ofFloats(String name, long[] shape, float[] values) {
        MemorySegment seg = MemorySegment.ofArray(new byte[Math.multiplyExact(values.length, 4)]);
        MemorySegment.copy(values, 0, seg, LittleEndian.F32, 0, values.length);
        return new Tensor(name, DType.F32, shape, seg);
    }

    @Override
    public long[] shape() {
        return shape.clone();
    }

    public int rank() {
        return shape.length;
    }

    public long dim(int i) {
        return shape[i];
    }

    public long elementCount() {
        long n = 1;
        for (long d : shape) n *= d;
        return n;
    }

    public long sizeBytes() {
        return data.byteSize();
    }

    /** The element at flat C-order index {@code i}, decoded (and dequantized) to float. */
    public float getFloat(long i) {
        return switch (dtype) {
            case F32, TF32 -> data.getAtIndex(LittleEndian.F32, i);
            case F64 -> (float) data.getAtIndex(LittleEndian.F64, i);
            case F16 -> Float.float16ToFloat(data.getAtIndex(LittleEndian.I16, i));
            case BF16 -> Float.intBitsToFloat((data.getAtIndex(LittleEndian.I16, i) & 0xffff) << 16);
            case F8_E4M3 -> Fp8.e4m3ToFloat(data.get(ValueLayout.JAVA_BYTE, i));
            case F8_E5M2 -> Fp8.e5m2ToFloat(data.get(ValueLayout.JAVA_BYTE, i));
            default -> (float) ((rawLong(i) - zeroPoint) * scale);
        };
    }

    /** True when element {@code i} is exactly zero (either sign for floats; the zero point for ints). */
    public boolean isZero(long i) {
        return switch (dtype) {
            case F32, TF32 -> (data.getAtIndex(LittleEndian.I32, i) & 0x7fffffff) == 0;
            case F64 -> (data.getAtIndex(LittleEndian.I64, i) & 0x7fffffffffffffffL) == 0;
            case F16, BF16 -> (data.getAtIndex(LittleEndian.I16, i) & 0x7fff) == 0;
            case F8_E4M3, F8_E5M2 -> (data.get(ValueLayout.JAVA_BYTE, i) & 0x7f) == 0;
            default -> rawLong(i) == zeroPoint;
        };
    }

    /**
     * The values of an integer tensor of at most {@code max} elements (a shape vector, axes, slice
     * bounds), or null for a floating-point or larger one.
     */
    public long[] smallInts(int max) {
        if (dtype.isFloatingPoint() || elementCount() > max) return null;
        long[] out = new long[(int) elementCount()];
        for (int i = 0; i < out.length; i++) out[i] = rawLong(i);
        return out;
    }

    /** Integer dtypes: the stored value at {@code i}, sign- or zero-extended. */
    public long rawLong(long i) {
        return switch (dtype) {
            case I8 -> data.get(ValueLayout.JAVA_BYTE, i);
            case U8, BOOL -> data.get(ValueLayout.JAVA_BYTE, i) & 0xff;
            case I16 -> data.getAtIndex(LittleEndian.I16, i);
            case U16 -> data.getAtIndex(LittleEndian.I16, i) & 0xffff;
            case I32 -> data.getAtIndex(LittleEndian.I32, i);
            case U32 -> data.getAtIndex(LittleEndian.I32, i) & 0xffffffffL;
            case I64 -> data.getAtIndex(LittleEndian.I64, i);
            default -> throw new IllegalStateException("rawLong on " + dtype);
        };
    }

    @Override
    public String toString() {
        return name + ":" + dtype.label() + Arrays.toString(shape);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Tensor t && t.name.equals(name) && t.dtype == dtype && Arrays.equals(t.shape, shape)
                && t.data.equals(data) && t.scale == scale && t.zeroPoint == zeroPoint;
    }

    @Override
    public int hashCode() {
        return name.hashCode() * 31 + Arrays.hashCode(shape);
    }
}
