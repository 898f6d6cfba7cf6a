package dev.sparseprof.model;

import dev.sparseprof.util.DType;
import dev.sparseprof.util.Json;
import dev.sparseprof.util.SparseprofException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * TensorFlow.js weights: a {@code *weights_manifest.json} (a JSON array of groups) or a
 * {@code model.json} (whose {@code weightsManifest} is that array). Each group lists shard
 * {@code paths}, read as one concatenated buffer, and its {@code weights} in buffer order
 * ({@code name}, {@code shape}, {@code dtype}, optional {@code quantization}). Shard paths must
 * stay inside the manifest's folder.
 *
 * <p>Quantized weights are dequantized into fp32: {@code {dtype: uint8|uint16, scale, min}} gives
 * {@code q·scale + min}, {@code {dtype, scale, zeroPoint}} gives {@code (q - zeroPoint)·scale},
 * {@code {dtype: float16}} is decoded. Affine {@code min} quantization need not map any code to
 * exactly 0 (the converter nudges {@code min} to {@code -zeroPoint·scale}, but the JSON decimal
 * and the float arithmetic leave a residue around 1e-9). Decision: the code nearest to
 * {@code -min/scale} is the zero code and decodes to exactly 0.0f when it lies in the code range and
 * its affine value is within {@code scale/2} of zero (i.e. zero is inside the quantized range);
 * otherwise no code is zero. Every other code keeps its affine value.
 *
 * <p>Layers follow TF's storage order: 2-D {@code [in, out]} Dense kernels are LINEAR (read
 * transposed); 4-D {@code [kh, kw, in, out]} filters are CONV as {@code [out, in·kh·kw]};
 * depthwise filters {@code [kh, kw, in, multiplier]} (named {@code *depthwise*}) are CONV as
 * {@code [in·multiplier, kh·kw]}; 1-D and scalar tensors are not layers.
 */
final class TfjsReader implements ModelReader {
    private static final long MAX_MANIFEST_BYTES = 100_000_000L;
    private static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt I32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfShort I16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    @Override
    public String name() {
        return "tfjs";
    }

    @Override
    public boolean accepts(Path file) {
        String n = file.getFileName().toString().toLowerCase(Locale.ROOT);
        return n.endsWith("weights_manifest.json") || n.equals("model.json");
    }

    @Override
    public Model read(Path file) {
        String source = file.toString();
        long size = ModelFiles.size(file);
        if (size > MAX_MANIFEST_BYTES) throw ModelFormatException.in(source, "manifest of " + size + " bytes is over the 100 MB limit");
        return ModelFiles.inArena(arena -> {
            MemorySegment bytes = ModelFiles.map(file, arena);
            Object json;
            try {
                json = Json.parse(new String(bytes.toArray(ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8));
            } catch (SparseprofException e) {
                throw ModelFormatException.in(source, e.getMessage());
            }
            Path folder = file.toAbsolutePath().getParent();
            List<Tensor> tensors = new ArrayList<>();
            for (Object group : groups(source, json)) readGroup(source, folder, group, arena, tensors);
            List<GemmLayer> layers = new ArrayList<>();
            for (Tensor t : tensors) {
                GemmLayer l = layer(t);
                if (l != null) layers.add(l);
            }
            return new Model(source, "tfjs", tensors, layers, Map.of("format", "tfjs"), arena);
        });
    }

    private static List<?> groups(String source, Object json) {
        Object manifest = json;
        if (json instanceof Map<?, ?> m) {
            manifest = m.get("weightsManifest");
            if (manifest == null) throw ModelFormatException.in(source, "model.json has no weightsManifest");
        }
        if (!(manifest instanceof List<?> list)) throw ModelFormatException.in(source, "weights manifest is not an array of groups");
        return list;
    }

    private static void readGroup(String source, Path folder, Object group, Arena arena, List<Tensor> into) {
        if (!(group instanceof Map<?, ?> g)) throw ModelFormatException.in(source, "manifest group is not an object");
        if (!(g.get("paths") instanceof List<?> paths) || paths.isEmpty()) throw ModelFormatException.in(source, "group without shard paths");
        if (!(g.get("weights") instanceof List<?> weights)) throw ModelFormatException.in(source, "group without weights");
        List<MemorySegment> shards = new ArrayList<>();
        for (Object p : paths) {
            if (!(p instanceof String s)) throw ModelFormatException.in(source, "shard path " + p + " is not a string");
            shards.add(ModelFiles.map(ModelFiles.confined(source, folder, s), arena));
        }
        ShardBuffer buffer = new ShardBuffer(shards);
        long offset = 0;
        for (Object w : weights) {
            if (!(w instanceof Map<?, ?> weight)) throw ModelFormatException.in(source, "weight entry is not an object");
            Tensor t = weight(source, weight, buffer, offset, arena);
            offset += storedBytes(source, weight, t.elementCount());
            into.add(t);
        }
    }

    private static Tensor weight(String source, Map<?, ?> w, ShardBuffer buffer, long offset, Arena arena) {
        if (!(w.get("name") instanceof String name)) throw ModelFormatException.in(source, "weight without a name");
        String where = "weight '" + name + "'";
        long[] shape = shape(source, where, w.get("shape"));
        long count = 1;
        for (long d : shape) {
            if (d > 0 && count > Long.MAX_VALUE / 8 / d) throw ModelFormatException.in(source, where + " is impossibly large");
            count *= d;
        }
        DType dtype = dtype(source, where, w.get("dtype"));
        long stored = storedBytes(source, w, count);
        if (offset > buffer.size() || stored > buffer.size() - offset) {
            throw ModelFormatException.in(source, where + " needs bytes " + offset + ".." + (offset + stored) + ", the shards hold " + buffer.size());
        }
        MemorySegment raw = buffer.slice(offset, stored, arena);
        Object q = w.get("quantization");
        if (q == null) return new Tensor(name, dtype, shape, raw);
        if (!(q instanceof Map<?, ?> quant)) throw ModelFormatException.in(source, where + " quantization is not an object");
        return new Tensor(name, dtype, shape, dequantize(source, where, quant, raw, count, dtype, arena));
    }

    private static long storedBytes(String source, Map<?, ?> w, long count) {
        Object q = w.get("quantization");
        String stored = q instanceof Map<?, ?> m && m.get("dtype") instanceof String s ? s : String.valueOf(w.get("dtype"));
        int bytes = switch (stored) {
            case "uint8", "bool", "int8" -> 1;
            case "uint16", "float16", "int16" -> 2;
            case "float32", "int32" -> 4;
            default -> throw ModelFormatException.in(source, "weight '" + w.get("name") + "' has unsupported stored dtype '" + stored + "'");
        };
        return count * bytes;
    }

    private static DType dtype(String source, String where, Object d) {
        if (!(d instanceof String s)) throw ModelFormatException.in(source, where + " has no dtype");
        return switch (s) {
            case "float32" -> DType.F32;
            case "int32" -> DType.I32;
            case "bool" -> DType.BOOL;
            default -> throw ModelFormatException.in(source, where + " has unsupported dtype '" + s + "' (float32, int32, bool)");
        };
    }

    private static long[] shape(String source, String where, Object s) {
        if (!(s instanceof List<?> list) || list.size() > 16) throw ModelFormatException.in(source, where + " has no valid shape");
        long[] shape = new long[list.size()];
        for (int i = 0; i < shape.length; i++) {
            if (!(list.get(i) instanceof Long v) || v < 0) throw ModelFormatException.in(source, where + " has a bad dimension " + list.get(i));
            shape[i] = v;
        }
        return shape;
    }

    private static MemorySegment dequantize(String source, String where, Map<?, ?> q, MemorySegment raw, long count, DType target, Arena arena) {
        String qtype = String.valueOf(q.get("dtype"));
        MemorySegment out = arena.allocate(Math.max(1, count * 4), 8).asSlice(0, count * 4);
        if (qtype.equals("float16")) {
            if (target != DType.F32) throw ModelFormatException.in(source, where + ": float16 quantization of " + target.label());
            for (long i = 0; i < count; i++) out.setAtIndex(F32, i, Float.float16ToFloat(raw.getAtIndex(I16, i)));
            return out;
        }
        int bits = switch (qtype) {
            case "uint8" -> 8;
            case "uint16" -> 16;
            default -> throw ModelFormatException.in(source, where + " has unsupported quantization dtype '" + qtype + "' (uint8, uint16, float16)");
        };
        double scale = number(source, where, q, "scale");
        long maxCode = (1L << bits) - 1;
        double min;
        long zeroCode;
        if (q.containsKey("zeroPoint")) {
            zeroCode = Math.round(number(source, where, q, "zeroPoint"));
            min = -zeroCode * scale;
        } else {
            min = number(source, where, q, "min");
            zeroCode = zeroCode(scale, min, maxCode);
        }
        for (long i = 0; i < count; i++) {
            int code = bits == 8 ? raw.get(ValueLayout.JAVA_BYTE, i) & 0xff : raw.getAtIndex(I16, i) & 0xffff;
            double v = code == zeroCode ? 0.0 : code * scale + min;
            if (target == DType.I32) out.setAtIndex(I32, i, (int) Math.round(v));
            else out.setAtIndex(F32, i, (float) v);
        }
        return out;
    }

    /** The code that stands for 0 (see the class comment), or -1 when zero is outside the range. */
    static long zeroCode(double scale, double min, long maxCode) {
        if (!(scale > 0)) return -1;
        long code = Math.round(-min / scale);
        if (code < 0 || code > maxCode) return -1;
        return Math.abs(code * scale + min) < scale / 2 ? code : -1;
    }

    private static double number(String source, String where, Map<?, ?> q, String key) {
        if (!(q.get(key) instanceof Number n) || !Double.isFinite(n.doubleValue())) {
            throw ModelFormatException.in(source, where + " quantization has no numeric '" + key + "'");
        }
        return n.doubleValue();
    }

    private static GemmLayer layer(Tensor t) {
        if (t.dtype() != DType.F32 || t.elementCount() == 0) return null;
        long[] s = t.shape();
        if (s.length == 2) {
            if (s[0] > Integer.MAX_VALUE || s[1] > Integer.MAX_VALUE) return null;
            TensorMatrix v = TensorMatrix.transposed(t, (int) s[1], (int) s[0]);
            return new GemmLayer(t.name(), t.name(), LayerKind.LINEAR, v.rows(), v.cols(), 1, v);
        }
        if (s.length != 4) return null;
        long kh = s[0];
        long kw = s[1];
        long in = s[2];
        long out = s[3];
        TensorMatrix v;
        if (t.name().toLowerCase(Locale.ROOT).contains("depthwise")) {
            // [kh, kw, in, mult]: row c*mult+m is contiguous at the last two axes.
            v = TensorMatrix.strided(t, (int) (in * out), (int) (kh * kw), 1, new long[] {kh, kw}, new long[] {kw * in * out, in * out});
        } else {
            v = TensorMatrix.strided(t, (int) out, (int) (in * kh * kw), 1, new long[] {in, kh, kw},
                    new long[] {out, kw * in * out, in * out});
        }
        return new GemmLayer(t.name(), t.name(), LayerKind.CONV, v.rows(), v.cols(), 1, v);
    }

    /** A group's shards as one buffer: slices within one shard are views, slices across shards copies. */
    private record ShardBuffer(List<MemorySegment> shards) {
        long size() {
            long n = 0;
            for (MemorySegment s : shards) n += s.byteSize();
            return n;
        }

        MemorySegment slice(long offset, long length, Arena arena) {
            long start = 0;
            for (MemorySegment s : shards) {
                if (offset >= start && offset + length <= start + s.byteSize()) return s.asSlice(offset - start, length);
                start += s.byteSize();
            }
            MemorySegment copy = arena.allocate(Math.max(1, length), 8).asSlice(0, length);
            long done = 0;
            start = 0;
            for (MemorySegment s : shards) {
                long from = Math.max(offset + done, start);
                long end = Math.min(offset + length, start + s.byteSize());
                if (from < end) {
                    MemorySegment.copy(s, from - start, copy, from - offset, end - from);
                    done = end - offset;
                }
                start += s.byteSize();
            }
            return copy;
        }
    }
}
