package dev.sparseprof.model;

import dev.sparseprof.util.DType;
import dev.sparseprof.util.Json;
import dev.sparseprof.util.SparseprofException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * safetensors files: a little-endian u64 header length, a JSON header
 * ({@code name -> {dtype, shape, data_offsets: [begin, end]}} plus an optional string map
 * {@code __metadata__}), then the data. The whole file is memory-mapped as one segment (files over
 * 2 GiB work) and each tensor is a slice of it, so nothing is copied.
 *
 * <p>Checked before anything is allocated: the header length against the file size and a 100 MB
 * cap; then per tensor the dtype, the shape, {@code end - begin == elements × dtype size}, offsets
 * inside the data area, and no two tensors overlapping.
 */
final class SafetensorsReader implements ModelReader {
    /** The safetensors library's own cap on header size. */
    static final long MAX_HEADER_BYTES = 100_000_000L;

    @Override
    public String name() {
        return "safetensors";
    }

    @Override
    public boolean accepts(Path file) {
        return ModelFiles.nameEndsWith(file, ".safetensors");
    }

    @Override
    public Model read(Path file) {
        return ModelFiles.inArena(arena -> read(file.toString(), ModelFiles.map(file, arena), arena));
    }

    private static Model read(String source, MemorySegment bytes, Arena arena) {
        Map<String, String> metadata = new LinkedHashMap<>();
        List<Tensor> tensors = tensors(source, bytes, metadata);
        metadata.putIfAbsent("format", "safetensors"); // the file's own "format" (Hugging Face writes "pt") is kept
        return new Model(source, "safetensors", tensors, TensorLayers.of(tensors, metadata), metadata, arena);
    }

    /** The metadata key naming the tensors held as opaque bytes ({@link SafetensorsDTypes#opaqueBits}): a model prune cannot rewrite. */
    static final String OPAQUE = "safetensors.skipped";

    /**
     * The tensors of one safetensors file held in {@code bytes} (slices of it), in header order;
     * its {@code __metadata__} goes into {@code metadata}. Used for single files and for the shards
     * of a Hugging Face folder.
     */
    static List<Tensor> tensors(String source, MemorySegment bytes, Map<String, String> metadata) {
        long size = bytes.byteSize();
        if (size < 8) throw ModelFormatException.in(source, "truncated: " + size + " bytes, no header length");
        long headerLength = bytes.get(LittleEndian.I64, 0);
        if (headerLength < 0 || headerLength > size - 8) {
            throw ModelFormatException.in(source, "header claims " + Long.toUnsignedString(headerLength) + " bytes, the file has "
                    + (size - 8) + " after the length");
        }
        if (headerLength > MAX_HEADER_BYTES) {
            throw ModelFormatException.in(source, "header of " + headerLength + " bytes is over the " + MAX_HEADER_BYTES + "-byte limit");
        }
        Map<String, Object> header = parseHeader(source, bytes.asSlice(8, headerLength));
        MemorySegment data = bytes.asSlice(8 + headerLength);
        List<Tensor> tensors = new ArrayList<>();
        List<long[]> ranges = new ArrayList<>();
        List<String> opaque = new ArrayList<>();
        for (Map.Entry<String, Object> e : header.entrySet()) {
            if (e.getKey().equals("__metadata__")) {
                metadata.putAll(metadata(source, e.getValue()));
                continue;
            }
            Tensor t = tensor(source, e.getKey(), e.getValue(), data, ranges, opaque);
            tensors.add(t);
        }
        checkNoOverlap(source, ranges, tensors);
        if (!opaque.isEmpty()) {
            metadata.put(OPAQUE, opaque.size() + (opaque.size() == 1 ? " tensor" : " tensors") + " of a dtype not decoded (microscaling "
                    + "codes and scales, U64, C64), left out of the layers: " + String.join(", ", opaque.subList(0, Math.min(3, opaque.size())))
                    + (opaque.size() > 3 ? ", ..." : ""));
        }
        return tensors;
    }

    private static Map<String, Object> parseHeader(String source, MemorySegment header) {
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(header.asByteBuffer()).toString();
        } catch (CharacterCodingException e) {
            throw ModelFormatException.in(source, "header is not UTF-8 text");
        }
        if (text.isEmpty() || text.charAt(0) != '{') throw ModelFormatException.in(source, "header is not a JSON object");
        try {
            return Json.parseObject(text.stripTrailing());
        } catch (SparseprofException e) {
            throw ModelFormatException.in(source, "header: " + e.getMessage());
        }
    }

    private static Map<String, String> metadata(String source, Object value) {
        if (!(value instanceof Map<?, ?> m)) throw ModelFormatException.in(source, "__metadata__ is not an object");
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : m.entrySet()) {
            if (!(e.getValue() instanceof String s)) throw ModelFormatException.in(source, "__metadata__ '" + e.getKey() + "' is not a string");
            out.put((String) e.getKey(), s);
        }
        return out;
    }

    private static Tensor tensor(String source, String name, Object value, MemorySegment data, List<long[]> ranges, List<String> opaque) {
        String where = "tensor '" + name + "'";
        if (!(value instanceof Map<?, ?> entry)) throw ModelFormatException.in(source, where + " is not an object");
        if (!(entry.get("dtype") instanceof String dtypeName)) throw ModelFormatException.in(source, where + " has no dtype string");
        DType dtype = SafetensorsDTypes.parse(dtypeName);
        int opaqueBits = dtype == null ? SafetensorsDTypes.opaqueBits(dtypeName) : 0;
        if (dtype == null && opaqueBits == 0) {
            throw ModelFormatException.in(source, where + " has unsupported dtype '" + dtypeName + "' (known: " + SafetensorsDTypes.known() + ")");
        }
        long[] shape = longs(source, where + " shape", entry.get("shape"), -1);
        long[] offsets = longs(source, where + " data_offsets", entry.get("data_offsets"), 2);
        long count = 1;
        for (long d : shape) {
            if (d < 0) throw ModelFormatException.in(source, where + " has a negative dimension " + Arrays.toString(shape));
            if (d > 0 && count > Long.MAX_VALUE / 8 / d) throw ModelFormatException.in(source, where + " is impossibly large " + Arrays.toString(shape));
            count *= d;
        }
        long begin = offsets[0];
        long end = offsets[1];
        if (begin < 0 || end < begin || end > data.byteSize()) {
            throw ModelFormatException.in(source, where + " data_offsets [" + begin + ", " + end + "] lie outside the "
                    + data.byteSize() + "-byte data area");
        }
        long need = dtype != null ? count * dtype.sizeBytes() : (count * opaqueBits + 7) / 8;
        if (end - begin != need) {
            throw ModelFormatException.in(source, where + " " + dtypeName + Arrays.toString(shape) + " needs " + need
                    + " bytes, data_offsets give " + (end - begin));
        }
        ranges.add(new long[] {begin, end, ranges.size()});
        if (dtype == null) {
            // held as its bytes: no layer reads it, and prune refuses to rewrite the file (it would lose the dtype)
            opaque.add(name + " " + dtypeName + Arrays.toString(shape));
            return new Tensor(name, DType.U8, new long[] {need}, data.asSlice(begin, need));
        }
        return new Tensor(name, dtype, shape, data.asSlice(begin, need));
    }

    private static long[] longs(String source, String what, Object value, int length) {
        if (!(value instanceof List<?> list)) throw ModelFormatException.in(source, what + " is not an array");
        if (length >= 0 && list.size() != length) throw ModelFormatException.in(source, what + " has " + list.size() + " entries, expected " + length);
        if (list.size() > 64) throw ModelFormatException.in(source, what + " has " + list.size() + " entries");
        long[] out = new long[list.size()];
        for (int i = 0; i < out.length; i++) {
            if (!(list.get(i) instanceof Long v)) throw ModelFormatException.in(source, what + " holds a non-integer " + list.get(i));
            out[i] = v;
        }
        return out;
    }

    private static void checkNoOverlap(String source, List<long[]> ranges, List<Tensor> tensors) {
        List<long[]> sorted = new ArrayList<>(ranges);
        sorted.sort(Comparator.comparingLong((long[] r) -> r[0]).thenComparingLong(r -> r[1]));
        for (int i = 1; i < sorted.size(); i++) {
            long[] prev = sorted.get(i - 1);
            long[] cur = sorted.get(i);
            if (cur[0] < prev[1]) {
                throw ModelFormatException.in(source, "tensors '" + tensors.get((int) prev[2]).name() + "' and '"
                        + tensors.get((int) cur[2]).name() + "' overlap in the data area");
            }
        }
    }
}
