package dev.sparseprof.model;

import dev.sparseprof.util.AtomicFiles;
import dev.sparseprof.util.JsonWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Writes tensors as a safetensors file, whole or not at all ({@link AtomicFiles}): the header lists
 * the tensors in the given order with consecutive {@code data_offsets} and the string map
 * {@code __metadata__}; it is padded with spaces to a multiple of 8 bytes so that the data is
 * aligned, as the reference implementation does.
 */
public final class SafetensorsWriter {
    private static final int CHUNK_BYTES = 1 << 20;

    private SafetensorsWriter() {}

    public static void write(Path target, List<Tensor> tensors, Map<String, String> metadata) {
        Set<String> names = new HashSet<>();
        for (Tensor t : tensors) {
            if (t.name().equals("__metadata__") || !names.add(t.name())) {
                throw ModelFormatException.in(target, "tensor name '" + t.name() + "' is used twice or reserved");
            }
        }
        byte[] header = header(tensors, metadata);
        AtomicFiles.write(target, out -> {
            out.write(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(header.length).array());
            out.write(header);
            byte[] chunk = new byte[CHUNK_BYTES];
            for (Tensor t : tensors) copy(t.data(), chunk, out);
        });
    }

    static byte[] header(List<Tensor> tensors, Map<String, String> metadata) {
        JsonWriter w = new JsonWriter().beginObject();
        if (!metadata.isEmpty()) {
            w.name("__metadata__").beginObject();
            for (Map.Entry<String, String> e : metadata.entrySet()) w.field(e.getKey(), e.getValue());
            w.endObject();
        }
        long offset = 0;
        for (Tensor t : tensors) {
            w.name(t.name()).beginObject().field("dtype", SafetensorsDTypes.name(t.dtype())).name("shape").beginArray();
            for (long d : t.shape()) w.value(d);
            w.endArray().name("data_offsets").beginArray().value(offset).value(offset + t.sizeBytes()).endArray().endObject();
            offset += t.sizeBytes();
        }
        byte[] json = w.endObject().toString().strip().getBytes(StandardCharsets.UTF_8);
        int padded = (json.length + 7) & ~7;
        byte[] out = new byte[padded];
        System.arraycopy(json, 0, out, 0, json.length);
        for (int i = json.length; i < padded; i++) out[i] = ' ';
        return out;
    }

    private static void copy(MemorySegment data, byte[] chunk, OutputStream out) throws IOException {
        long size = data.byteSize();
        for (long done = 0; done < size; ) {
            int n = (int) Math.min(chunk.length, size - done);
            MemorySegment.copy(data, ValueLayout.JAVA_BYTE, done, chunk, 0, n);
            out.write(chunk, 0, n);
            done += n;
        }
    }
}
