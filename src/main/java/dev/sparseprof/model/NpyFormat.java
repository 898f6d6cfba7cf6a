package dev.sparseprof.model;

import dev.sparseprof.util.DType;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The NumPy {@code .npy} format, versions 1 to 3: the magic {@code \x93NUMPY}, a version, a header
 * length (u16 in v1, u32 in v2/v3), and a Python dict literal
 * {@code {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }}, then the data. Little-endian
 * and byte-sized descriptors are read; C order is sliced in place, Fortran order is copied once
 * into C order (into the arena) so that every {@link Tensor} is C order.
 */
final class NpyFormat {
    private static final byte[] MAGIC = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'};
    private static final Pattern DESCR = Pattern.compile("'descr'\\s*:\\s*'([^']*)'");
    private static final Pattern FORTRAN = Pattern.compile("'fortran_order'\\s*:\\s*(True|False)");
    private static final Pattern SHAPE = Pattern.compile("'shape'\\s*:\\s*\\(([^)]*)\\)");

    private NpyFormat() {}

    /** Parses one array held in {@code bytes} (a mapped file or an npz member) into a tensor. */
    static Tensor parse(String source, String name, MemorySegment bytes, Arena arena) {
        long size = bytes.byteSize();
        if (size < 10) throw ModelFormatException.in(source, "truncated: " + size + " bytes, not an .npy header");
        for (int i = 0; i < MAGIC.length; i++) {
            if (bytes.get(ValueLayout.JAVA_BYTE, i) != MAGIC[i]) throw ModelFormatException.in(source, "not an .npy array (bad magic)");
        }
        int major = bytes.get(ValueLayout.JAVA_BYTE, 6);
        long headerLength;
        long dataStart;
        if (major == 1) {
            headerLength = bytes.get(LittleEndian.I16, 8) & 0xffff;
            dataStart = 10 + headerLength;
        } else if (major == 2 || major == 3) {
            if (size < 12) throw ModelFormatException.in(source, "truncated .npy v" + major + " header");
            headerLength = bytes.get(LittleEndian.I32, 8) & 0xffffffffL;
            dataStart = 12 + headerLength;
        } else {
            throw ModelFormatException.in(source, "unsupported .npy version " + major);
        }
        if (dataStart > size) {
            throw ModelFormatException.in(source, "header claims " + headerLength + " bytes, the file has " + size);
        }
        byte[] raw = bytes.asSlice(dataStart - headerLength, headerLength).toArray(ValueLayout.JAVA_BYTE);
        String header = new String(raw, major == 3 ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1);
        DType dtype = dtype(source, field(source, DESCR, header, "descr"));
        boolean fortran = field(source, FORTRAN, header, "fortran_order").equals("True");
        long[] shape = shape(source, field(source, SHAPE, header, "shape"));
        long count = 1;
        for (long d : shape) {
            if (d > 0 && count > Long.MAX_VALUE / 8 / d) throw ModelFormatException.in(source, "impossibly large shape " + Arrays.toString(shape));
            count *= d;
        }
        long need = count * dtype.sizeBytes();
        if (need != size - dataStart) {
            throw ModelFormatException.in(source, dtype.label() + Arrays.toString(shape) + " needs " + need + " bytes of data, the file holds "
                    + (size - dataStart));
        }
        MemorySegment data = bytes.asSlice(dataStart, need);
        if (fortran && shape.length > 1) data = toCOrder(data, shape, dtype.sizeBytes(), arena);
        return new Tensor(name, dtype, shape, data);
    }

    private static String field(String source, Pattern p, String header, String key) {
        Matcher m = p.matcher(header);
        if (!m.find()) throw ModelFormatException.in(source, "header has no '" + key + "' (" + header.strip() + ")");
        return m.group(1);
    }

    private static DType dtype(String source, String descr) {
        if (descr.length() < 2) throw ModelFormatException.in(source, "bad descr '" + descr + "'");
        char order = descr.charAt(0);
        String code = descr.substring(1);
        boolean oneByte = code.endsWith("1");
        if (order == '>' && !oneByte) throw ModelFormatException.in(source, "big-endian arrays ('" + descr + "') are not supported");
        if (order != '<' && order != '|' && order != '=' && order != '>') throw ModelFormatException.in(source, "bad descr '" + descr + "'");
        return switch (code) {
            case "f8" -> DType.F64;
            case "f4" -> DType.F32;
            case "f2" -> DType.F16;
            case "i8" -> DType.I64;
            case "i4" -> DType.I32;
            case "i2" -> DType.I16;
            case "u2" -> DType.U16;
            case "i1" -> DType.I8;
            case "u1" -> DType.U8;
            case "b1" -> DType.BOOL;
            default -> throw ModelFormatException.in(source, "unsupported dtype '" + descr + "' (f8 f4 f2 i8 i4 i2 u2 i1 u1 b1)");
        };
    }

    private static long[] shape(String source, String text) {
        String t = text.strip();
        if (t.isEmpty()) return new long[0];
        String[] parts = t.split(",");
        int n = parts.length;
        if (parts[n - 1].isBlank()) n--;
        if (n > 32) throw ModelFormatException.in(source, "shape of rank " + n);
        long[] shape = new long[n];
        for (int i = 0; i < n; i++) {
            try {
                shape[i] = Long.parseLong(parts[i].strip());
            } catch (NumberFormatException e) {
                throw ModelFormatException.in(source, "bad shape (" + text + ")");
            }
            if (shape[i] < 0) throw ModelFormatException.in(source, "negative dimension in shape (" + text + ")");
        }
        return shape;
    }

    /** Copies column-major data into row-major order, element by element. */
    private static MemorySegment toCOrder(MemorySegment f, long[] shape, int elementBytes, Arena arena) {
        int rank = shape.length;
        long count = f.byteSize() / elementBytes;
        MemorySegment c = arena.allocate(Math.max(1, f.byteSize()), 8).asSlice(0, f.byteSize());
        long[] fStride = new long[rank];
        long s = 1;
        for (int k = 0; k < rank; k++) {
            fStride[k] = s;
            s *= shape[k];
        }
        long[] index = new long[rank];
        long fIndex = 0;
        for (long i = 0; i < count; i++) {
            MemorySegment.copy(f, fIndex * elementBytes, c, i * elementBytes, elementBytes);
            for (int k = rank - 1; k >= 0; k--) {
                index[k]++;
                fIndex += fStride[k];
                if (index[k] < shape[k]) break;
                fIndex -= index[k] * fStride[k];
                index[k] = 0;
            }
        }
        return c;
    }
}
