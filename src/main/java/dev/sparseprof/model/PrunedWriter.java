package dev.sparseprof.model;

import dev.sparseprof.util.AtomicFiles;
import dev.sparseprof.util.DType;
import dev.sparseprof.util.Json;
import dev.sparseprof.util.JsonWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Writes a model back in the kind of file it came from, with some tensors' stored bytes edited (the
 * pruned weights zeroed), streaming tensor by tensor: at most one tensor's stored bytes are held at a
 * time (a heap array dropped after each tensor), everything else is copied in 1 MiB chunks.
 *
 * <ul>
 * <li>{@link Kind#ONNX}: the source ModelProto re-emitted byte for byte, each edited tensor's
 * {@code raw_data} replaced by its edited bytes (same length, so no length prefix changes), and
 * the metadata appended as {@code metadata_props} entries (field 14) at the end of the message.</li>
 * <li>{@link Kind#SAFETENSORS}: every tensor under its own name, dtype and shape, in the header's
 * order, {@code __metadata__} = the source's plus the given entries.</li>
 * <li>{@link Kind#FOLDER}: a sharded Hugging Face folder: the source's shards (from its index's
 * {@code weight_map}, else one {@code model.safetensors}) rewritten as safetensors files of the same
 * names (a torch shard {@code x.bin} becomes {@code x.safetensors}) holding the same tensors, the
 * index ({@code model.safetensors.index.json}) with the metadata added to its {@code metadata}, and
 * the source folder's other small JSON/text files ({@code config.json}, tokenizer files) copied.
 * The folder is written into a hidden sibling and moved into place when complete: whole or nothing.</li>
 * </ul>
 * A kind that cannot hold the source (an ONNX graph into safetensors, a weights file into ONNX) is
 * refused in one line before anything is written.
 */
public final class PrunedWriter {
    private static final int CHUNK_BYTES = 1 << 20;
    /** Threads writing tensors side by side: pruning is CPU work, so a second core halves it. */
    private static final int WRITERS = Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors()));
    /** Untouched bytes go from the (mapped) source to the file in system calls of this size. */
    private static final long SLICE_BYTES = 16L << 20;

    /**
     * Edits one tensor's bytes. {@link #edit} works in place on a copy ({@code target} starts as a
     * copy of {@code tensor}'s stored bytes); {@link #stream}, where it returns true, instead wrote the
     * edited bytes through the sink in order, without a tensor-sized buffer. The safetensors writers
     * call both from several threads at once, for different tensors.
     */
    @FunctionalInterface
    public interface Editor {
        void edit(Tensor tensor, MemorySegment target);

        /** Writes {@code tensor}'s edited bytes through {@code sink}; false when this tensor needs {@link #edit}. */
        default boolean stream(Tensor tensor, ByteSink sink) throws IOException {
            return false;
        }
    }

    /** Takes a tensor's bytes from {@code byteOffset} (within the tensor) on. */
    @FunctionalInterface
    public interface ByteSink {
        void write(long byteOffset, MemorySegment bytes) throws IOException;
    }

    /** The kind of file {@code --out} names. */
    public enum Kind {
        ONNX, SAFETENSORS, FOLDER;

        public static Kind of(Path out) {
            String n = out.getFileName().toString().toLowerCase(Locale.ROOT);
            if (n.endsWith(".onnx")) return ONNX;
            if (n.endsWith(".safetensors")) return SAFETENSORS;
            if (Files.isDirectory(out) || !n.contains(".")) return FOLDER;
            throw new ModelFormatException("--out " + out + ": unknown kind of file (name it *.onnx, *.safetensors, or a new folder: a sharded checkpoint's, or a TF.js model's, which gets its"
                    + " model.json or manifest and its shards)");
        }
    }

    private PrunedWriter() {}

    /** Refuses, in one line, a kind that cannot hold {@code m} (its graph, or its weights' layout). */
    public static Kind check(Model m, Path out) {
        Kind kind = Kind.of(out);
        boolean graph = m.format().equals("onnx");
        if (graph && kind != Kind.ONNX) {
            throw new ModelFormatException("--out " + out + ": a " + kind.name().toLowerCase(Locale.ROOT) + " cannot hold the graph of the ONNX model "
                    + m.source() + "; name it *.onnx");
        }
        if (!graph && kind == Kind.ONNX) {
            throw new ModelFormatException("--out " + out + ": " + m.source() + " (" + m.format() + ") has no graph to write as ONNX; "
                    + "name it *.safetensors or a folder");
        }
        if (m.metadata().containsKey(SafetensorsReader.OPAQUE)) {
            throw new ModelFormatException(m.source() + ": holds tensors of a dtype sparseprof keeps only as bytes ("
                    + m.metadata().get(SafetensorsReader.OPAQUE) + "); a pruned copy would lose their dtype and shape, so nothing is written");
        }
        if (kind == Kind.FOLDER && Files.exists(out) && !Files.isDirectory(out)) {
            throw new ModelFormatException("--out " + out + ": exists and is not a folder (a sharded or TF.js output is a new folder; nothing is overwritten)");
        }
        if (kind != Kind.FOLDER && Files.isDirectory(out)) {
            throw new ModelFormatException("--out " + out + ": is a folder, not a " + kind.name().toLowerCase(Locale.ROOT) + " file (nothing is written over a folder)");
        }
        if (m.format().equals("tfjs") && kind != Kind.FOLDER && TfjsReader.hasGraph(Path.of(m.source()))) {
            throw new ModelFormatException("--out " + out + ": a " + kind.name().toLowerCase(Locale.ROOT) + " file cannot hold the graph of the TF.js model "
                    + m.source() + "; name a new folder, which gets the model.json and its shards");
        }
        if (kind == Kind.FOLDER && Files.isDirectory(out)) {
            try (var entries = Files.list(out)) {
                if (entries.findAny().isPresent()) throw new ModelFormatException("--out " + out + ": folder is not empty (nothing is overwritten in a folder)");
            } catch (IOException e) {
                throw new ModelFormatException("--out " + out + ": cannot list folder (" + e.getMessage() + ")");
            }
        }
        return kind;
    }

    /** Writes {@code m} to {@code out} with the tensors named in {@code edited} passed through {@code editor}. */
    public static void write(Model m, Path out, Set<String> edited, Editor editor, Map<String, String> metadata) {
        switch (check(m, out)) {
            case ONNX -> writeOnnx(m, out, edited, editor, metadata);
            case SAFETENSORS -> writeSafetensors(out, m.tensors(), merged(m.metadata(), metadata), edited, editor);
            case FOLDER -> {
                if (m.format().equals("tfjs")) inFolder(out, tmp -> TfjsWriter.write(m, tmp, edited, editor, metadata));
                else writeFolder(m, out, edited, editor, metadata);
            }
        }
    }

    /**
     * The source's metadata plus {@code added}; {@code format} keeps the file's own value (Hugging
     * Face's loader wants {@code "pt"}), and a reader's label in its place becomes {@code "pt"}.
     */
    private static Map<String, String> merged(Map<String, String> source, Map<String, String> added) {
        Map<String, String> all = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : source.entrySet()) {
            if (!e.getKey().startsWith("sparseprof.") && !e.getKey().startsWith("hf.")) all.put(e.getKey(), e.getValue());
        }
        String format = all.get("format");
        if (format == null || Set.of("safetensors", "npy", "npz", "mtx", "tfjs", "hf", "torch", "gguf").contains(format)) all.put("format", "pt");
        all.putAll(added);
        return all;
    }

    // ---- ONNX

    private static void writeOnnx(Model m, Path out, Set<String> edited, Editor editor, Map<String, String> metadata) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment bytes = sourceBytes(m, arena);
            OnnxGraph graph = OnnxGraph.parseModel(ProtoReader.of(m.source(), bytes));
            Map<String, OnnxTensorProto> protos = new HashMap<>();
            for (OnnxTensorProto p : graph.initializers()) protos.putIfAbsent(p.name(), p);
            for (OnnxNode node : graph.nodes()) {
                OnnxNode.Attribute value = node.attributes().get("value");
                if (node.opType().equals("Constant") && value != null && value.t() != null && !node.outputs().isEmpty()) {
                    protos.putIfAbsent(node.outputs().get(0), value.t());
                }
            }
            Map<String, Tensor> byName = new HashMap<>();
            for (Tensor t : m.tensors()) byName.put(t.name(), t);
            TreeMap<Long, Region> regions = new TreeMap<>();
            for (String name : edited) {
                OnnxTensorProto p = protos.get(name);
                Tensor t = byName.get(name);
                if (p == null || t == null) throw ModelFormatException.in(m.source(), "tensor '" + name + "' is not an initializer or Constant of the graph; cannot rewrite it");
                if (!p.external() && p.rawStart() >= 0 && p.rawLength() == t.sizeBytes()) {
                    regions.put(p.rawStart(), new Region(t, 0));
                } else if (!p.external() && p.floatsStart() >= 0 && t.dtype() == DType.F32) {
                    regions.put(p.floatsStart(), new Region(t, p.floatsStride() == 4 ? 0 : p.floatsStride()));
                } else {
                    throw ModelFormatException.in(m.source(), "tensor '" + name + "' is not stored in place in the file ("
                            + (p.external() ? "external data" : "varint-typed values or a sparse initializer")
                            + "); sparseprof rewrites raw_data and float_data in place only");
                }
            }
            AtomicFiles.write(out, stream -> {
                byte[] chunk = new byte[CHUNK_BYTES];
                long at = 0;
                for (Map.Entry<Long, Region> r : regions.entrySet()) {
                    long start = r.getKey();
                    copy(bytes, at, start - at, chunk, stream);
                    Tensor t = r.getValue().tensor();
                    long stride = r.getValue().stride();
                    if (stride == 0) {
                        MemorySegment target = heapCopy(bytes, start, t);
                        editor.edit(t, target);
                        copy(target, 0, t.sizeBytes(), chunk, stream);
                        at = start + t.sizeBytes();
                    } else {
                        // one key byte before each 4-byte value: gather the values, edit, scatter back
                        long n = t.elementCount();
                        long length = n * stride - (stride - 4);
                        MemorySegment region = heapCopy(bytes, start, length, t.name());
                        MemorySegment target = MemorySegment.ofArray(new byte[Math.toIntExact(t.sizeBytes())]);
                        for (long i = 0; i < n; i++) MemorySegment.copy(region, i * stride, target, i * 4, 4);
                        editor.edit(t, target);
                        for (long i = 0; i < n; i++) MemorySegment.copy(target, i * 4, region, i * stride, 4);
                        copy(region, 0, length, chunk, stream);
                        at = start + length;
                    }
                }
                copy(bytes, at, bytes.byteSize() - at, chunk, stream);
                stream.write(metadataProps(metadata));
            });
        }
    }

    /** {@code ModelProto.metadata_props} (field 14) entries {@code StringStringEntryProto{key=1, value=2}}. */
    static byte[] metadataProps(Map<String, String> metadata) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Map.Entry<String, String> e : metadata.entrySet()) {
            byte[] key = e.getKey().getBytes(StandardCharsets.UTF_8);
            byte[] value = e.getValue().getBytes(StandardCharsets.UTF_8);
            ByteArrayOutputStream entry = new ByteArrayOutputStream();
            entry.write(0x0a);
            varint(entry, key.length);
            entry.writeBytes(key);
            entry.write(0x12);
            varint(entry, value.length);
            entry.writeBytes(value);
            out.write((14 << 3) | 2);
            varint(out, entry.size());
            out.writeBytes(entry.toByteArray());
        }
        return out.toByteArray();
    }

    private static void varint(ByteArrayOutputStream out, long v) {
        while ((v & ~0x7fL) != 0) {
            out.write((int) ((v & 0x7f) | 0x80));
            v >>>= 7;
        }
        out.write((int) v);
    }

    /** The model's file bytes: the file named by its source, or the bundled resource it came from. */
    private static MemorySegment sourceBytes(Model m, Arena arena) {
        for (String resource : new String[] {Models.DEFAULT_RESOURCE, Models.DEFAULT_QUANTIZED_RESOURCE}) {
            if (m.source().equals(resource + " (bundled " + Models.DEFAULT_NAME + ")")) return Models.bundledBytes(resource, arena);
        }
        return ModelFiles.map(Path.of(m.source()), arena);
    }

    // ---- safetensors

    /**
     * The header, then every tensor at its place through positional writes on the file's channel:
     * untouched tensors copied from the source file inside the kernel ({@link FileWindows#copyTo};
     * a source that is not a registered mapping straight from its segment in large writes), edited ones through the
     * editor's stream (a chunk at a time) or, where it declines, a heap copy edited in place.
     * {@value #WRITERS}-at-most threads take tensors largest first.
     */
    private static void writeSafetensors(Path out, List<Tensor> tensors, Map<String, String> metadata, Set<String> edited, Editor editor) {
        AtomicFiles.writeChannel(out, channel -> writeFiles(List.of(channel), List.of(tensors), metadata, edited, editor));
    }

    /**
     * Writes safetensors file {@code f} into {@code channels.get(f)}: each file's header, then the
     * tensors of all files on up to {@value #WRITERS} threads, handed out by {@link WriteTurns} so that
     * the threads write different files while two or more have work (each file's inode lock is held
     * for each buffered write, so threads on one file take turns).
     */
    private static void writeFiles(List<FileChannel> channels, List<List<Tensor>> files, Map<String, String> metadata,
                                   Set<String> edited, Editor editor) throws IOException {
        long[][] at = new long[files.size()][];
        long[][] bytes = new long[files.size()][];
        for (int f = 0; f < files.size(); f++) {
            List<Tensor> tensors = files.get(f);
            byte[] header = SafetensorsWriter.header(tensors, metadata);
            ByteBuffer head = ByteBuffer.allocate(8 + header.length).order(ByteOrder.LITTLE_ENDIAN).putLong(header.length).put(header).flip();
            writeFully(channels.get(f), head, 0);
            at[f] = new long[tensors.size()];
            bytes[f] = new long[tensors.size()];
            long offset = 8 + header.length;
            for (int i = 0; i < tensors.size(); i++) {
                at[f][i] = offset;
                bytes[f][i] = tensors.get(i).sizeBytes();
                offset += bytes[f][i];
            }
        }
        WriteTurns.run(new WriteTurns(bytes), WRITERS, CHUNK_BYTES, (task, buffer) -> {
            Tensor t = files.get(task.file()).get(task.item());
            writeTensor(channels.get(task.file()), t, at[task.file()][task.item()], edited.contains(t.name()) ? editor : null, buffer);
        });
    }

    private static void writeTensor(FileChannel channel, Tensor t, long at, Editor editor, ByteBuffer buffer) throws IOException {
        if (editor == null) {
            FileWindows file = FileWindows.of(t.data());
            if (file != null) file.copyTo(file.fileOffset(t.data()), t.sizeBytes(), channel, at);
            else writeSegment(channel, t.data(), at, buffer);
            return;
        }
        ByteSink sink = (offset, bytes) -> {
            if (offset < 0 || offset + bytes.byteSize() > t.sizeBytes()) throw new IllegalArgumentException("bytes past the end of " + t);
            writeSegment(channel, bytes, at + offset, buffer);
        };
        if (editor.stream(t, sink)) return;
        MemorySegment target = heapCopy(t.data(), 0, t);
        editor.edit(t, target);
        writeSegment(channel, target, at, buffer);
    }

    /** {@code data} at {@code at}: native and byte-array segments as they are, others through the thread's direct buffer. */
    private static void writeSegment(FileChannel channel, MemorySegment data, long at, ByteBuffer buffer) throws IOException {
        boolean direct = data.isNative() || data.heapBase().map(b -> b instanceof byte[]).orElse(false);
        long step = direct ? SLICE_BYTES : buffer.capacity();
        for (long done = 0; done < data.byteSize(); ) {
            long n = Math.min(step, data.byteSize() - done);
            ByteBuffer b;
            if (direct) {
                b = data.asSlice(done, n).asByteBuffer();
            } else {
                MemorySegment.copy(data, done, MemorySegment.ofBuffer(buffer.clear()), 0, n);
                b = buffer.limit((int) n);
            }
            writeFully(channel, b, at + done);
            done += n;
        }
    }

    private static void writeFully(FileChannel channel, ByteBuffer b, long at) throws IOException {
        long position = at;
        while (b.hasRemaining()) position += channel.write(b, position);
    }

    // ---- sharded folder

    private static void writeFolder(Model m, Path out, Set<String> edited, Editor editor, Map<String, String> metadata) {
        // A Hugging Face checkpoint (format "hf") names its index file in "hf.index"; its source is the folder or the index.
        Path src = Path.of(m.source());
        Path folder = m.format().equals("hf") ? (Files.isDirectory(src) ? src : src.toAbsolutePath().getParent()) : null;
        String indexName = m.metadata().get("hf.index");
        Path index = folder != null && indexName != null ? folder.resolve(indexName) : null;
        Map<String, String> weightMap = new LinkedHashMap<>();
        Map<String, Object> indexMetadata = new LinkedHashMap<>();
        if (index != null && Files.isRegularFile(index)) {
            Map<String, Object> json = Json.parseObject(readText(index));
            if (json.get("weight_map") instanceof Map<?, ?> wm) {
                for (Map.Entry<?, ?> e : wm.entrySet()) weightMap.put((String) e.getKey(), String.valueOf(e.getValue()));
            }
            if (json.get("metadata") instanceof Map<?, ?> md) {
                for (Map.Entry<?, ?> e : md.entrySet()) indexMetadata.put((String) e.getKey(), e.getValue());
            }
        }
        Map<String, List<Tensor>> shards = new TreeMap<>();
        for (Tensor t : m.tensors()) {
            String shard = weightMap.getOrDefault(t.name(), "model.safetensors");
            shards.computeIfAbsent(safeShardName(m.source(), shard), k -> new ArrayList<>()).add(t);
        }
        inFolder(out, tmp -> writeShards(m, tmp, edited, editor, metadata, shards, indexMetadata, index, folder));
    }

    /** Fills a folder for {@code out}. */
    @FunctionalInterface
    private interface FolderBody {
        void writeInto(Path folder) throws IOException;
    }

    /** Everything goes into a hidden sibling folder first, moved into place only when complete: whole or nothing. */
    private static void inFolder(Path out, FolderBody body) {
        Path done = out.toAbsolutePath();
        Path tmp = done.resolveSibling("." + done.getFileName() + ".part-" + ProcessHandle.current().pid());
        try {
            Files.createDirectories(tmp);
            body.writeInto(tmp);
            if (Files.isDirectory(done)) Files.delete(done); // check() made sure it is empty
            Files.move(tmp, done, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new ModelFormatException("--out " + out + ": cannot write the folder (" + e.getMessage() + ")");
        } finally {
            deleteTree(tmp);
        }
    }

    private static void writeShards(Model m, Path out, Set<String> edited, Editor editor, Map<String, String> metadata,
                                    Map<String, List<Tensor>> shards, Map<String, Object> indexMetadata, Path index, Path folder) throws IOException {
        long total = 0;
        for (List<Tensor> s : shards.values()) {
            for (Tensor t : s) total += t.sizeBytes();
        }
        // every shard at once, so that the writers can each take a different file; the folder is whole or nothing, so no file of its own needs a temporary
        List<FileChannel> channels = new ArrayList<>();
        try {
            for (String name : shards.keySet()) channels.add(FileChannel.open(out.resolve(name), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE));
            writeFiles(channels, new ArrayList<>(shards.values()), merged(m.metadata(), metadata), edited, editor);
        } finally {
            for (FileChannel c : channels) c.close();
        }
        indexMetadata.put("total_size", total);
        for (Map.Entry<String, String> e : metadata.entrySet()) indexMetadata.put(e.getKey(), e.getValue());
        JsonWriter w = new JsonWriter().beginObject().name("metadata").beginObject();
        for (Map.Entry<String, Object> e : indexMetadata.entrySet()) {
            if (e.getValue() instanceof Long n) w.field(e.getKey(), n);
            else w.field(e.getKey(), String.valueOf(e.getValue()));
        }
        w.endObject().name("weight_map").beginObject();
        for (Map.Entry<String, List<Tensor>> s : shards.entrySet()) {
            for (Tensor t : s.getValue()) w.field(t.name(), s.getKey());
        }
        // torch shards come back as safetensors, so their index is named for safetensors too
        String outIndex = index != null && index.getFileName().toString().endsWith(".safetensors.index.json")
                ? index.getFileName().toString() : "model.safetensors.index.json";
        AtomicFiles.writeString(out.resolve(outIndex), w.endObject().endObject().toString());
        if (folder != null) copySideFiles(folder, out, outIndex);
    }

    private static void deleteTree(Path dir) {
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) return;
        try (var files = Files.walk(dir)) {
            for (Path f : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) Files.deleteIfExists(f);
        } catch (IOException | UncheckedIOException ignored) {
            // best-effort cleanup of our own temporary folder; the error that matters is already thrown
        }
    }

    /** A shard name from an index: a plain file name in the folder (no separators, no {@code ..}). */
    private static String safeShardName(String source, String shard) {
        if (shard.contains("/") || shard.contains("\\") || shard.equals("..") || !shard.toLowerCase(Locale.ROOT).endsWith(".safetensors")) {
            String base = shard.replaceAll(".*[/\\\\]", "");
            if (base.isEmpty() || base.equals("..")) throw ModelFormatException.in(source, "shard name '" + shard + "' cannot be written");
            return base.replaceAll("(?i)\\.(bin|pt|pth)$", "") + (base.toLowerCase(Locale.ROOT).endsWith(".safetensors") ? "" : ".safetensors");
        }
        return shard;
    }

    /**
     * Copies the source folder's small JSON and text files (config, tokenizer) that are not weights or
     * the index; links are followed only into a hub cache's blobs.
     */
    private static void copySideFiles(Path from, Path to, String indexName) {
        if (from == null) return;
        try (var files = Files.list(from)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                String n = f.getFileName().toString().toLowerCase(Locale.ROOT);
                boolean side = (n.endsWith(".json") || n.endsWith(".txt") || n.endsWith(".model") || n.endsWith(".md")) && !n.endsWith(".index.json")
                        && !n.equals(indexName.toLowerCase(Locale.ROOT));
                // a regular file, or a hub cache snapshot's link to its blob (ModelFiles.inHubCacheBlobs)
                boolean file = Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)
                        || Files.isSymbolicLink(f) && Files.isRegularFile(f) && ModelFiles.inHubCacheBlobs(from.toRealPath(), f.toRealPath());
                if (side && file && Files.size(f) <= 64L << 20) {
                    Files.copy(f, to.resolve(f.getFileName()));
                }
            }
        } catch (IOException e) {
            throw new ModelFormatException(from + ": cannot copy side files (" + e.getMessage() + ")");
        }
    }

    private static String readText(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw ModelFormatException.in(file, "cannot read (" + e.getMessage() + ")");
        }
    }

    /** Where an edited ONNX tensor's values sit: contiguous ({@code stride} 0) or every {@code stride} bytes. */
    private record Region(Tensor tensor, long stride) {}

    /** One tensor's stored bytes copied onto the heap (the only tensor-sized buffer the writer holds). */
    private static MemorySegment heapCopy(MemorySegment from, long offset, Tensor t) {
        return heapCopy(from, offset, t.sizeBytes(), t.name());
    }

    private static MemorySegment heapCopy(MemorySegment from, long offset, long length, String name) {
        if (length > Integer.MAX_VALUE - 8) throw new ModelFormatException("tensor '" + name + "' of " + length + " bytes is over 2 GiB; cannot rewrite it");
        MemorySegment target = MemorySegment.ofArray(new byte[(int) length]);
        MemorySegment.copy(from, offset, target, 0, length);
        return target;
    }

    private static void copy(MemorySegment data, long from, long length, byte[] chunk, OutputStream out) throws IOException {
        for (long done = 0; done < length; ) {
            int n = (int) Math.min(chunk.length, length - done);
            MemorySegment.copy(data, ValueLayout.JAVA_BYTE, from + done, chunk, 0, n);
            out.write(chunk, 0, n);
            done += n;
        }
    }
}
