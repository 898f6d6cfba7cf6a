package dev.sparseprof.model;

import dev.sparseprof.util.Json;
import dev.sparseprof.util.JsonWriter;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A TF.js model written back as TF.js into a (new, empty) folder: the manifest ({@code model.json}
 * or {@code *weights_manifest.json}) byte for byte, so every weight keeps its name, shape, dtype and
 * quantization and a TF.js loader reads it as before; each shard under its own path with its own
 * size, a copy of the source's bytes except the pruned weights' stored codes, which become the code
 * of an exact 0 (0 bits for float32 and float16, the zero code for uint8/uint16 quantization; a
 * quantized weight with no code for 0 is refused in one line, since its pruned zeros cannot be
 * stored exactly); and {@code <manifest>.sparseprof.json} with the metadata (what was done), which
 * the manifest format has no place for. Untouched weights keep every byte. One edited weight's
 * floats and codes are on the heap at a time.
 */
final class TfjsWriter {
    private TfjsWriter() {}

    static void write(Model m, Path into, Set<String> edited, PrunedWriter.Editor editor, Map<String, String> metadata) throws IOException {
        String source = m.source();
        Path manifest = Path.of(source).toAbsolutePath();
        Path folder = manifest.getParent();
        byte[] text = Files.readAllBytes(manifest);
        Object json = Json.parse(new String(text, StandardCharsets.UTF_8));
        Map<String, Tensor> byName = new HashMap<>();
        for (Tensor t : m.tensors()) byName.putIfAbsent(t.name(), t);
        Files.write(into.resolve(manifest.getFileName().toString()), text);
        for (Object group : TfjsReader.groups(source, json)) {
            Map<?, ?> g = (Map<?, ?>) group;
            List<Path> outs = new ArrayList<>();
            List<Long> starts = new ArrayList<>();
            long start = 0;
            for (Object p : (List<?>) g.get("paths")) {
                Path from = ModelFiles.confined(source, folder, (String) p);
                Path to = into.resolve(folder.relativize(from).toString());
                if (to.getParent() != null) Files.createDirectories(to.getParent());
                if (!Files.exists(to)) Files.copy(from, to);
                outs.add(to);
                starts.add(start);
                start += Files.size(from);
            }
            long offset = 0;
            for (Object w : (List<?>) g.get("weights")) {
                Map<?, ?> weight = (Map<?, ?>) w;
                String name = (String) weight.get("name");
                Tensor t = byName.get(name);
                long stored = TfjsReader.storedBytes(source, weight, t.elementCount());
                if (edited.contains(name)) rewrite(source, weight, t, editor, outs, starts, offset, stored);
                offset += stored;
            }
        }
        JsonWriter meta = new JsonWriter().beginObject();
        for (Map.Entry<String, String> e : metadata.entrySet()) meta.field(e.getKey(), e.getValue());
        String stem = manifest.getFileName().toString().replaceAll("(?i)\\.json$", "");
        Files.writeString(into.resolve(stem + ".sparseprof.json"), meta.endObject().toString());
    }

    /** The pruned weight's zeros stored as codes, over its bytes at {@code offset} of the group's shards. */
    private static void rewrite(String source, Map<?, ?> weight, Tensor t, PrunedWriter.Editor editor, List<Path> outs, List<Long> starts,
                                long offset, long stored) throws IOException {
        String where = "weight '" + t.name() + "'";
        long count = t.elementCount();
        MemorySegment pruned = MemorySegment.ofArray(new byte[Math.toIntExact(t.sizeBytes())]);
        MemorySegment.copy(t.data(), 0, pruned, 0, t.sizeBytes());
        editor.edit(t, pruned);
        MemorySegment codes = MemorySegment.ofArray(io(outs, starts, offset, new byte[Math.toIntExact(stored)], false));
        int width = (int) (stored / Math.max(1, count));
        Map<?, ?> q = weight.get("quantization") instanceof Map<?, ?> map ? map : null;
        long zero = q == null ? 0 : TfjsQuantization.zeroCodeOf(source, where, q);
        for (long i = 0; i < count; i++) {
            boolean cleared = (pruned.getAtIndex(LittleEndian.I32, i) & 0x7fffffff) == 0 && (t.data().getAtIndex(LittleEndian.I32, i) & 0x7fffffff) != 0;
            if (!cleared) continue;
            if (zero < 0) {
                throw ModelFormatException.in(source, where + " is " + q.get("dtype") + "-quantized with scale " + q.get("scale") + " and min " + q.get("min")
                        + ", which give no code for 0: its pruned weights cannot be stored exactly (prune it to --out *.safetensors as float32 instead)");
            }
            switch (width) {
                case 1 -> codes.set(ValueLayout.JAVA_BYTE, i, (byte) zero);
                case 2 -> codes.setAtIndex(LittleEndian.I16, i, (short) zero);
                default -> codes.setAtIndex(LittleEndian.I32, i, (int) zero);
            }
        }
        io(outs, starts, offset, codes.toArray(ValueLayout.JAVA_BYTE), true);
    }

    /** Reads or writes {@code bytes} at {@code offset} of the group's concatenated shards (a weight may straddle two). */
    private static byte[] io(List<Path> shards, List<Long> starts, long offset, byte[] bytes, boolean write) throws IOException {
        for (int s = 0; s < shards.size(); s++) {
            long from = starts.get(s);
            long size = Files.size(shards.get(s));
            long lo = Math.max(offset, from);
            long hi = Math.min(offset + bytes.length, from + size);
            if (lo >= hi) continue;
            try (FileChannel ch = FileChannel.open(shards.get(s), write ? StandardOpenOption.WRITE : StandardOpenOption.READ)) {
                ByteBuffer b = ByteBuffer.wrap(bytes, (int) (lo - offset), (int) (hi - lo));
                long at = lo - from;
                while (b.hasRemaining()) {
                    int n = write ? ch.write(b, at) : ch.read(b, at);
                    if (n < 0) throw new IOException(shards.get(s) + " ends early");
                    at += n;
                }
            }
        }
        return bytes;
    }
}
