package dev.sparseprof.model;

import dev.sparseprof.util.DType;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Turns {@link OnnxTensorProto}s into {@link Tensor}s: {@code raw_data} becomes a slice of the
 * model's bytes (no copy), typed fields are packed into an arena segment of exactly the tensor's
 * size (after their count was checked), and external data is mapped from a file that must sit in
 * the model's folder, with {@code offset}/{@code length} checked against that file's size.
 */
final class OnnxTensorDecoder {

    private final String source;
    private final MemorySegment modelBytes;
    private final Path folder;
    private final Arena arena;
    private final Map<Path, MemorySegment> externalFiles = new HashMap<>();

    /** {@code folder} is where external data may live; null when the model has no folder (a resource). */
    OnnxTensorDecoder(String source, MemorySegment modelBytes, Path folder, Arena arena) {
        this.source = source;
        this.modelBytes = modelBytes;
        this.folder = folder;
        this.arena = arena;
    }

    /** The sparseprof type of an ONNX {@code TensorProto.DataType}; null for legal types it does not hold. */
    static DType dtypeOf(int onnxType, String source, String tensor) {
        return switch (onnxType) {
            case 1 -> DType.F32;
            case 2 -> DType.U8;
            case 3 -> DType.I8;
            case 4 -> DType.U16;
            case 5 -> DType.I16;
            case 6 -> DType.I32;
            case 7 -> DType.I64;
            case 9 -> DType.BOOL;
            case 10 -> DType.F16;
            case 11 -> DType.F64;
            case 16 -> DType.BF16;
            case 17 -> DType.F8_E4M3;
            case 19 -> DType.F8_E5M2;
            // string, uint32, uint64, complex, the FNUZ fp8 variants, 4-bit and fp4 types: not weights we read
            case 8, 12, 13, 14, 15, 18, 20, 21, 22, 23, 24, 25, 26 -> null;
            default -> throw ModelFormatException.in(source, "tensor '" + tensor + "' has unknown data_type " + onnxType);
        };
    }

    /** Decodes one tensor, or returns null when its type is one sparseprof does not hold. */
    Tensor decode(OnnxTensorProto t, String fallbackName) {
        String name = t.name().isEmpty() ? fallbackName : t.name();
        DType dtype = dtypeOf(t.dataType(), source, name);
        if (dtype == null) return null;
        long[] dims = t.dims();
        long count = 1;
        for (long d : dims) {
            if (d < 0) throw ModelFormatException.in(source, "tensor '" + name + "' has negative dimension in " + Arrays.toString(dims));
            if (d > 0 && count > Long.MAX_VALUE / 8 / d) throw ModelFormatException.in(source, "tensor '" + name + "' is impossibly large " + Arrays.toString(dims));
            count *= d;
        }
        long bytes = count * dtype.sizeBytes();
        MemorySegment data;
        if (t.external()) {
            data = external(t, name, bytes);
        } else if (t.rawStart() >= 0) {
            if (t.rawLength() != bytes) {
                throw ModelFormatException.in(source, "tensor '" + name + "' " + dtype.label() + Arrays.toString(dims)
                        + " needs " + bytes + " bytes, raw_data holds " + t.rawLength());
            }
            data = modelBytes.asSlice(t.rawStart(), bytes);
        } else if (t.typedField() != 0) {
            data = typed(t, name, dtype, count);
        } else if (count == 0) {
            data = MemorySegment.ofArray(new byte[0]);
        } else {
            throw ModelFormatException.in(source, "tensor '" + name + "' " + Arrays.toString(dims) + " has no data");
        }
        return new Tensor(name, dtype, dims, data);
    }

    /** The most dense bytes a sparse initializer may expand to: its values must still fit in one Java array's worth of floats. */
    static final long MAX_DENSE_SPARSE_BYTES = 1L << 31;

    /**
     * A {@code sparse_initializer} as a dense tensor: zeros everywhere but at {@code indices}
     * ({@code [nnz]} linear, or {@code [nnz, rank]} coordinates, int64), which must lie inside
     * {@code dims} and be as many as the values. Null for a value type sparseprof does not hold.
     */
    Tensor densify(OnnxGraph.SparseInitializer sparse, String fallbackName) {
        OnnxTensorProto vp = sparse.values();
        String name = vp.name().isEmpty() ? fallbackName : vp.name();
        Tensor values = decode(vp, name);
        if (values == null) return null;
        Tensor indices = decode(sparse.indices(), name + ".indices");
        long[] dims = sparse.dims();
        long count = 1;
        for (long d : dims) {
            if (d < 0 || (d > 0 && count > Long.MAX_VALUE / 8 / d)) {
                throw ModelFormatException.in(source, "sparse tensor '" + name + "' has impossible dims " + Arrays.toString(dims));
            }
            count *= d;
        }
        long bytes = count * values.dtype().sizeBytes();
        if (bytes > MAX_DENSE_SPARSE_BYTES) {
            throw ModelFormatException.in(source, "sparse tensor '" + name + "' claims dense dims " + Arrays.toString(dims) + " (" + bytes
                    + " bytes), over the " + MAX_DENSE_SPARSE_BYTES + "-byte limit for densifying");
        }
        long nnz = values.elementCount();
        if (values.rank() != 1 || indices.dtype() != DType.I64) {
            throw ModelFormatException.in(source, "sparse tensor '" + name + "': values must be 1-D and indices int64, got " + values + " and " + indices);
        }
        boolean linear = indices.rank() == 1;
        if (!(linear && indices.dim(0) == nnz) && !(indices.rank() == 2 && indices.dim(0) == nnz && indices.dim(1) == dims.length)) {
            throw ModelFormatException.in(source, "sparse tensor '" + name + "': indices " + indices + " do not fit " + nnz + " values of rank " + dims.length);
        }
        int size = values.dtype().sizeBytes();
        MemorySegment seg = arena.allocate(Math.max(1, bytes), 8).asSlice(0, bytes);
        for (long i = 0; i < nnz; i++) {
            long at;
            if (linear) {
                at = indices.rawLong(i);
            } else {
                at = 0;
                for (int k = 0; k < dims.length; k++) {
                    long c = indices.rawLong(i * dims.length + k);
                    if (c < 0 || c >= dims[k]) { at = -1; break; }
                    at = at * dims[k] + c;
                }
            }
            if (at < 0 || at >= count) throw ModelFormatException.in(source, "sparse tensor '" + name + "': index " + i + " lies outside " + Arrays.toString(dims));
            MemorySegment.copy(values.data(), i * size, seg, at * size, size);
        }
        return new Tensor(name, values.dtype(), dims, seg);
    }

    private MemorySegment typed(OnnxTensorProto t, String name, DType dtype, long count) {
        long[] values = t.typedValues();
        int expectedField = switch (dtype) {
            case F32 -> OnnxTensorProto.FLOAT_DATA;
            case F64 -> OnnxTensorProto.DOUBLE_DATA;
            case I64 -> OnnxTensorProto.INT64_DATA;
            default -> OnnxTensorProto.INT32_DATA;
        };
        if (t.typedField() != expectedField) {
            throw ModelFormatException.in(source, "tensor '" + name + "' of type " + dtype.label()
                    + " stores its values in the wrong field (" + t.typedField() + ", expected " + expectedField + ")");
        }
        if (values.length != count) {
            throw ModelFormatException.in(source, "tensor '" + name + "' has " + values.length + " values for "
                    + Arrays.toString(t.dims()) + " (" + count + " elements)");
        }
        MemorySegment seg = arena.allocate(Math.max(1, count * dtype.sizeBytes()), 8).asSlice(0, count * dtype.sizeBytes());
        for (int i = 0; i < values.length; i++) {
            long v = values[i];
            switch (dtype.sizeBytes()) {
                case 1 -> seg.set(ValueLayout.JAVA_BYTE, i, (byte) v);
                case 2 -> seg.setAtIndex(LittleEndian.I16, i, (short) v);
                case 4 -> seg.setAtIndex(LittleEndian.I32, i, (int) v);
                default -> seg.setAtIndex(LittleEndian.I64, i, v);
            }
        }
        return seg;
    }

    private MemorySegment external(OnnxTensorProto t, String name, long bytes) {
        Map<String, String> entries = t.externalData();
        String location = entries.get("location");
        if (location == null) throw ModelFormatException.in(source, "tensor '" + name + "' is external but names no location");
        if (folder == null) {
            throw ModelFormatException.in(source, "tensor '" + name + "' refers to external file '" + location
                    + "', but this model has no folder to read it from");
        }
        Path file = ModelFiles.confined(source, folder, location);
        MemorySegment whole = externalFiles.computeIfAbsent(file, f -> ModelFiles.map(f, arena));
        long offset = number(entries, "offset", 0, name);
        long length = number(entries, "length", bytes, name);
        if (length != bytes) {
            throw ModelFormatException.in(source, "tensor '" + name + "' needs " + bytes + " bytes, external length says " + length);
        }
        if (offset < 0 || offset > whole.byteSize() || length > whole.byteSize() - offset) {
            throw ModelFormatException.in(source, "tensor '" + name + "': external range " + offset + "+" + length
                    + " lies outside " + location + " (" + whole.byteSize() + " bytes)");
        }
        return whole.asSlice(offset, length);
    }

    private long number(Map<String, String> entries, String key, long fallback, String tensor) {
        String text = entries.get(key);
        if (text == null) return fallback;
        try {
            return Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            throw ModelFormatException.in(source, "tensor '" + tensor + "': external " + key + " '" + text + "' is not a number");
        }
    }
}
