package dev.sparseprof.model;

import static dev.sparseprof.model.OnnxReaderTest.assertFault;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.util.DType;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SafetensorsTest {
    @TempDir Path dir;

    @Test
    void metadataKeepsTheFilesOrderSoARewriteIsByteIdentical() throws IOException {
        Map<String, String> ordered = new LinkedHashMap<>();
        for (int i = 0; i < 24; i++) ordered.put("key" + (i * 7919 % 24), "v" + i);
        Path file = dir.resolve("order.safetensors");
        SafetensorsWriter.write(file, List.of(Tensor.ofFloats("w", new long[] {2, 2}, new float[4])), ordered);
        try (Model m = Models.open(file)) {
            List<String> read = List.copyOf(m.metadata().keySet());
            assertEquals(List.copyOf(ordered.keySet()), read.subList(0, ordered.size()),
                    "the reader's order, not a per-run salted one");
        }
    }

    @Test
    void writerAndReaderRoundTripWithMetadataAndLayerRules() throws IOException {
        float[] linear = OnnxReaderTest.randomWeights(6 * 4, 1, 0.5);
        float[] conv = OnnxReaderTest.randomWeights(2 * 3 * 3 * 3, 2, 0.2);
        float[] embed = OnnxReaderTest.randomWeights(10 * 4, 3, 0);
        MemorySegment i8 = MemorySegment.ofArray(new byte[] {1, -2, 0, 4});
        List<Tensor> tensors = List.of(
                Tensor.ofFloats("fc.weight", new long[] {6, 4}, linear),
                Tensor.ofFloats("fc.bias", new long[] {6}, new float[6]),
                Tensor.ofFloats("conv.weight", new long[] {2, 3, 3, 3}, conv),
                Tensor.ofFloats("tok_embeddings.weight", new long[] {10, 4}, embed),
                new Tensor("q", DType.I8, new long[] {2, 2}, i8));
        Path file = dir.resolve("m.safetensors");
        SafetensorsWriter.write(file, tensors, Map.of("pruned", "magnitude 0.5"));
        long headerLength = ByteBuffer.wrap(Files.readAllBytes(file), 0, 8).order(ByteOrder.LITTLE_ENDIAN).getLong();
        assertEquals(0, headerLength % 8, "header padded to 8 bytes");
        try (Model m = Models.open(file)) {
            assertEquals("magnitude 0.5", m.metadata().get("pruned"));
            assertEquals(5, m.tensors().size());
            assertEquals(3, m.layers().size(), "bias and int8 tensors are not layers");
            GemmLayer fc = m.layers().get(0);
            assertEquals(LayerKind.LINEAR, fc.kind());
            assertEquals(6, fc.rows());
            assertArrayEquals(linear, fc.matrix().toDense());
            GemmLayer c = m.layers().get(1);
            assertEquals(LayerKind.CONV, c.kind());
            assertEquals(27, c.cols());
            assertArrayEquals(conv, c.matrix().toDense());
            assertEquals(LayerKind.EMBEDDING_GATHER, m.layers().get(2).kind());
            Tensor q = m.tensors().get(4);
            assertEquals(DType.I8, q.dtype());
            assertEquals(-2, q.rawLong(1));
        }
    }

    @Test
    void tensorsBeyondTwoGibibytesAreRead() throws IOException {
        // A sparse file (holes cost no disk): the tensor's data sits past the 2 GiB mark.
        long offset = (1L << 31) + 4096;
        String header = "{\"pad\":{\"dtype\":\"U8\",\"shape\":[" + offset + "],\"data_offsets\":[0," + offset + "]},"
                + "\"w\":{\"dtype\":\"F32\",\"shape\":[2,2],\"data_offsets\":[" + offset + "," + (offset + 16) + "]}}";
        byte[] h = header.getBytes(StandardCharsets.US_ASCII);
        Path file = dir.resolve("big.safetensors");
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.write(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(h.length).array());
            f.write(h);
            f.seek(8 + h.length + offset);
            f.write(ProtoWriter.floatsLE(1, 0, 0, -2));
        }
        try (Model m = Models.open(file)) {
            GemmLayer w = m.layers().get(0);
            assertEquals("w", w.name());
            assertArrayEquals(new float[] {1, 0, 0, -2}, w.matrix().toDense());
        }
    }

    @Test
    void halfPrecisionAndFp8DecodeExactly() throws IOException {
        short[] f16 = {Float.floatToFloat16(1.5f), Float.floatToFloat16(-0.0f), Float.floatToFloat16(2.0f), 0};
        ByteBuffer b = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
        for (short s : f16) b.putShort(s);
        Path file = write("h.safetensors", "{\"w\":{\"dtype\":\"F16\",\"shape\":[2,2],\"data_offsets\":[0,8]},"
                + "\"e\":{\"dtype\":\"F8_E4M3\",\"shape\":[2],\"data_offsets\":[8,10]}}", concat(b.array(), new byte[] {0x38, 0x00}));
        try (Model m = Models.open(file)) {
            assertArrayEquals(new float[] {1.5f, -0.0f, 2.0f, 0.0f}, m.layers().get(0).matrix().toDense());
            assertEquals(1.0f, m.tensors().get(1).getFloat(0));
            assertTrue(m.tensors().get(1).isZero(1));
        }
    }

    @Test
    void badFilesAreOneLineErrorsBeforeAllocating() throws IOException {
        Path f = dir.resolve("bad.safetensors");
        Files.write(f, new byte[5]);
        assertFault(f, "truncated");
        // a 100 MB header claim in a 1 KB file
        byte[] small = new byte[1024];
        ByteBuffer.wrap(small).order(ByteOrder.LITTLE_ENDIAN).putLong(100_000_000L);
        Files.write(f, small);
        assertFault(f, "header claims 100000000 bytes");
        assertFault(write("neg.safetensors", -1L, "{}", new byte[0]), "header claims");
        assertFault(write("arr.safetensors", "[1,2]", new byte[0]), "not a JSON object");
        assertFault(write("json.safetensors", "{\"w\":", new byte[0]), "header: JSON");
        assertFault(write("range.safetensors", "{\"w\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,16]}}", new byte[8]), "lie outside");
        assertFault(write("size.safetensors", "{\"w\":{\"dtype\":\"F32\",\"shape\":[3],\"data_offsets\":[0,8]}}", new byte[8]), "needs 12 bytes");
        assertFault(write("over.safetensors", "{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]},"
                + "\"b\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[4,12]}}", new byte[12]), "overlap");
        assertFault(write("dtype.safetensors", "{\"w\":{\"dtype\":\"Q4\",\"shape\":[2],\"data_offsets\":[0,1]}}", new byte[1]), "unsupported dtype 'Q4'");
        assertFault(write("f4.safetensors", "{\"w\":{\"dtype\":\"F4\",\"shape\":[3],\"data_offsets\":[0,1]}}", new byte[1]), "F4[3] needs 2 bytes");
        assertFault(write("type.safetensors", "{\"w\":{\"dtype\":\"F32\",\"shape\":\"2\",\"data_offsets\":[0,8]}}", new byte[8]), "shape is not an array");
        assertFault(write("meta.safetensors", "{\"__metadata__\":{\"k\":1}}", new byte[0]), "not a string");
        assertFault(write("utf.safetensors", new String(new byte[] {'{', (byte) 0xff, '}'}, StandardCharsets.ISO_8859_1), new byte[0]), "");
    }

    @Test
    void aFilesOwnMetadataUnderConfigNamesThatAreNoIntegersAreUnknownFacts() throws IOException {
        // __metadata__ is the file's to fill: "config.hidden_size": "abc" is no config.json fact
        Map<String, String> meta = Map.of("config.hidden_size", "abc", "config.num_hidden_layers", "-3", "config.experts", "x",
                "config.quant_bits", "4.5", "config.vocab_size", "many");
        Path file = dir.resolve("meta-facts.safetensors");
        SafetensorsWriter.write(file, List.of(Tensor.ofFloats("a.weight", new long[] {4, 4}, new float[16])), meta);
        try (Model m = Models.open(file)) {
            HfConfig config = HfConfig.of(m);
            assertEquals(0, config.hiddenSize());
            assertEquals(0, config.blocks());
            assertEquals(0, config.experts());
            assertEquals(1, m.layers().size());
        }
    }

    @Test
    void writerLeavesNoFileWhenItFails() {
        Path target = dir.resolve("out.safetensors");
        List<Tensor> dup = List.of(Tensor.ofFloats("a", new long[] {1}, new float[1]), Tensor.ofFloats("a", new long[] {1}, new float[1]));
        OnnxReaderTest.assertFaultOf(() -> SafetensorsWriter.write(target, dup, Map.of()), "used twice");
        assertFalse(Files.exists(target));
    }

    private Path write(String name, String header, byte[] data) throws IOException {
        return write(name, header.getBytes(StandardCharsets.ISO_8859_1).length, header, data);
    }

    private Path write(String name, long claimed, String header, byte[] data) throws IOException {
        byte[] h = header.getBytes(StandardCharsets.ISO_8859_1);
        byte[] len = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(claimed).array();
        Path f = dir.resolve(name);
        Files.write(f, concat(concat(len, h), data));
        return f;
    }

    static byte[] concat(byte[] a, byte[] b) {
        byte[] out = new byte[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
