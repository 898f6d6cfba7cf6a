package dev.sparseprof.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.util.DType;
import dev.sparseprof.util.Json;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * int32-packed int4/int8 checkpoints ({@link PackedIntMatrix}): GPTQ, AWQ and compressed-tensors'
 * pack-quantized weights, FP4 ones ({@link Fp4Matrix}: compressed-tensors' NVFP4 and MXFP4, ModelOpt's
 * NVFP4), bitsandbytes' NF4 (plain and nested) and LLM.int8 ones ({@link BnbMatrix}) and MLX's affine ones
 * ({@link MlxMatrix}, 4 bits and 3 bits whose codes cross words) and AQLM's codebook codes ({@link AqlmMatrix}: two 8-bit
 * codebooks of 1 x 8 codewords with signed int8 codes, one 12-bit codebook of 2 x 4) and HQQ's packed codes ({@link HqqMatrix}: 4 bits
 * in groups along rows, also stored viewed as fp16, 3 bits in groups down columns), written by src/test/resources/packed/generate.py
 * the way each library's own packing code
 * writes them (transcribed to numpy: AutoGPTQ's {@code QuantLinear.pack}, AutoAWQ's
 * {@code WQLinear_GEMM.from_linear}, compressed-tensors' {@code pack_to_int32} and
 * {@code pack_fp4_to_uint8}, bitsandbytes' default-backend {@code quantize_4bit} and
 * {@code QuantState.as_dict}, aqlm's {@code pack_int_data}, hqq's {@code Quantizer.quantize} and {@code bitpack}), each over a weight half pruned to zeros before quantizing
 * (AQLM: half of the groups name the zero codeword).
 */
class PackedIntCheckpointTest {
    private static final Path FOLDER = Path.of("src/test/resources/packed");

    @TempDir
    Path dir;

    /**
     * Each form reads as its library dequantizes it (expected.json: non-zeros, sums, three elements of
     * {@code (code - zero)·scale}, GPTQ's stored zero plus one, act-order's {@code g_idx} groups), is
     * one layer named {@code P.weight}, priced at its stored bits and computed in its 16-bit type (int8
     * for LLM.int8), and leaves no tensor skipped.
     */
    @Test
    void eachFormReadsAsItsLibraryDequantizesIt() throws IOException {
        Map<String, Object> expected = Json.parseObject(Files.readString(FOLDER.resolve("expected.json")));
        assertEquals(Set.of("gptq-act-order", "gptq8", "awq", "ct-sym", "ct-asym8", "nvfp4", "mxfp4", "nvfp4-modelopt", "bnb-nf4", "bnb-nf4-nested",
                "bnb-int8", "mlx4", "mlx3", "aqlm-2x8", "aqlm-1x12", "hqq4", "hqq3-axis0",
                "hqq4-float-view"),
                expected.keySet());
        Map<String, Double> bits = Map.ofEntries(
                Map.entry("gptq-act-order", 4 + 16.0 / 32 + 4.0 / 32),  // codes, an fp16 scale and a 4-bit zero per 32
                Map.entry("gptq8", 8 + 16.0 / 128 + 8.0 / 128),           // one group of 128 inputs
                Map.entry("awq", 4 + 16.0 / 32 + 4.0 / 32),
                Map.entry("ct-sym", 4 + 32.0 / 32),                       // fp32 scales, no zero points
                Map.entry("ct-asym8", 8 + 32.0 / 128 + 8.0 / 128),
                Map.entry("nvfp4", 4 + 8.0 / 16),                         // an fp8 scale per 16 codes
                Map.entry("mxfp4", 4 + 8.0 / 32),                         // an E8M0 scale per 32
                Map.entry("nvfp4-modelopt", 4 + 8.0 / 16),
                Map.entry("bnb-nf4", 8.0 * (4096 + 128 * 4 + 16 * 4) / 8192),   // codes, an fp32 absmax per 64, the 16-entry map
                Map.entry("bnb-nf4-nested", 8.0 * (4096 + 128 + 16 * 4 + 4 + 256 * 4) / 8192), // uint8 absmax codes, one nested absmax, the 256-entry map
                Map.entry("bnb-int8", 8.0),
                Map.entry("mlx4", 4 + 32.0 / 64),                         // an fp16 scale and bias per 64
                Map.entry("mlx3", 3 + 32.0 / 32),                         // per 32
                // int8 codes of two books per 8 inputs, two 256 x 8 fp16 codebooks, an fp16 scale per row
                Map.entry("aqlm-2x8", 8.0 * (64 * 16 * 2 + 2 * 256 * 8 * 2 + 64 * 2) / 8192),
                // int16 codes per 2 x 4 block, one 4096 x 2 x 4 fp16 codebook (most of a layer this small), a scale per 2 rows
                Map.entry("aqlm-1x12", 8.0 * (32 * 32 * 2 + 4096 * 8 * 2 + 32 * 2) / 8192),
                Map.entry("hqq4", 4 + 32.0 / 64),                         // an fp16 scale and zero per 64
                // 64 grouped rows padded to 70, ten 3-bit codes an int32, an fp16 scale and zero per column group
                Map.entry("hqq3-axis0", 8.0 * (7 * 128 * 4 + 128 * 2 * 2) / 8192),
                Map.entry("hqq4-float-view", 4 + 32.0 / 64));              // the same bytes, viewed as fp16
        for (var e : expected.entrySet()) {
            String form = e.getKey();
            @SuppressWarnings("unchecked")
            Map<String, Object> want = (Map<String, Object>) e.getValue();
            try (Model m = Models.open(FOLDER.resolve(form))) {
                assertEquals(1, m.layers().size(), form + ": " + m.layers());
                GemmLayer l = m.layers().get(0);
                assertEquals(want.get("layer"), l.name(), form);
                assertEquals(64, l.rows(), form);
                assertEquals(128, l.cols(), form);
                assertEquals(bits.get(form), l.storedBitsPerWeight(), 1e-9, form);
                DType compute = form.contains("fp4") || form.startsWith("bnb-nf4") ? DType.BF16 : form.equals("bnb-int8") ? DType.I8 : DType.F16;
                assertEquals(compute, l.storedDType(), form + ": W4A16/W8A16 multiply in the scales' 16-bit type (fp16 for fp32 scales), "
                        + "bitsandbytes' 4-bit in its state's dtype, FP4 in bf16 (no FP4 tensor cores on the specs here); LLM.int8 as int8");
                float[] dense = l.matrix().toDense();
                Checksum c = Checksum.of(dense);
                assertEquals(((Number) want.get("nonZeros")).longValue(), c.nonZeros(), form);
                assertEquals(((Number) want.get("sum")).doubleValue(), c.sum(), 1e-4, form);
                assertEquals(((Number) want.get("absSum")).doubleValue(), c.absSum(), 1e-4, form);
                for (Object o : (List<?>) want.get("elements")) {
                    List<?> rc = (List<?>) o;
                    int r = ((Number) rc.get(0)).intValue();
                    int col = ((Number) rc.get(1)).intValue();
                    assertEquals(((Number) rc.get(2)).floatValue(), dense[r * 128 + col], 1e-6f, form + " element " + r + "," + col);
                }
                assertNull(m.metadata().get("tensors.skipped"), form);
                assertNull(m.metadata().get("packed.skipped"), form);
            }
        }
    }

    /**
     * A last, short group (96 inputs in groups of 64: two scales): the config's group size places column 64
     * in the second group, where {@code ceil(96 / 2) = 48} would have placed column 48 there already.
     */
    @Test
    void aShortLastGroupFollowsTheConfigsGroupSize() {
        int rows = 8;
        int cols = 96;
        int[] words = new int[cols * rows / 8];
        Arrays.fill(words, 0x99999999); // every 4-bit code 9: symmetric zero 8, so each element is its group's scale
        Tensor codes = new Tensor("p.qweight", DType.I32, new long[] {cols, rows / 8}, MemorySegment.ofArray(words));
        float[] s = new float[2 * rows];
        for (int r = 0; r < rows; r++) {
            s[r] = 1;
            s[rows + r] = 2;
        }
        Tensor scales = Tensor.ofFloats("p.scales", new long[] {2, rows}, s);
        float[] row = new float[cols];
        new PackedIntMatrix(PackedIntMatrix.Form.AWQ, codes, scales, null, null, rows, cols, 4, false, 64).copyRow(3, row, 0);
        assertEquals(1f, row[63]);
        assertEquals(2f, row[64]);
        new PackedIntMatrix(PackedIntMatrix.Form.AWQ, codes, scales, null, null, rows, cols, 4, false, 0).copyRow(3, row, 0);
        assertEquals(2f, row[48], "without a group size, ceil(cols / groups)");
    }

    /**
     * bitsandbytes' blocks run over the flat weight, across rows: 3 x 40 elements in blocks of 32 (the last
     * one short), element i = {@code map[code_i]·absmax[i / 32]}, the first code of a byte in its high nibble.
     */
    @Test
    void bitsandbytesBlocksRunAcrossRows() {
        int rows = 3;
        int cols = 40;
        int n = rows * cols;
        byte[] packed = new byte[n / 2];
        for (int i = 0; i < n; i += 2) packed[i / 2] = (byte) (((i * 7) % 16) << 4 | ((i + 1) * 7) % 16);
        float[] map = new float[16];
        for (int k = 0; k < 16; k++) map[k] = k - 7; // code 7 is the exact zero, as NF4's
        float[] absmax = {1, 2, 3, 4};
        byte[] state = "{\"quant_type\": \"nf4\", \"blocksize\": 32, \"dtype\": \"float16\", \"shape\": [3, 40]}".getBytes(StandardCharsets.UTF_8);
        String w = "m.weight";
        List<Tensor> tensors = List.of(new Tensor(w, DType.U8, new long[] {n / 2, 1}, MemorySegment.ofArray(packed)),
                Tensor.ofFloats(w + ".quant_map", new long[] {16}, map), Tensor.ofFloats(w + ".absmax", new long[] {4}, absmax),
                new Tensor(w + ".quant_state.bitsandbytes__nf4", DType.U8, new long[] {state.length}, MemorySegment.ofArray(state)));
        Map<String, Tensor> byName = new HashMap<>();
        for (Tensor t : tensors) byName.put(t.name(), t);
        List<String> faults = new ArrayList<>();
        List<GemmLayer> layers = BnbMatrix.layers(tensors, byName, faults, new ArrayList<>());
        assertTrue(faults.isEmpty(), faults.toString());
        float[] dense = layers.get(0).matrix().toDense();
        for (int i = 0; i < n; i++) assertEquals(map[(i * 7) % 16] * absmax[i / 32], dense[i], 0f, "element " + i);
        assertEquals(DType.F16, layers.get(0).storedDType());
    }

    /** An FP4 scale block must be whole bytes of codes: 3 scales over a row of 6 codes (blocks of 2) read, 2 (blocks of 3) are refused. */
    @Test
    void fp4ScaleBlocksOfHalfAByteAreRefused() {
        Tensor codes = new Tensor("p.weight_packed", DType.U8, new long[] {2, 3}, MemorySegment.ofArray(new byte[] {0x21, 0x43, 0x65, 0x21, 0x43, 0x65}));
        Tensor odd = new Tensor("p.weight_scale", DType.U8, new long[] {2, 2}, MemorySegment.ofArray(new byte[] {127, 127, 127, 127}));
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new Fp4Matrix(Fp4Matrix.Form.MXFP4, codes, odd, null));
        assertTrue(e.getMessage().contains("leaving blocks of whole bytes"), e.getMessage());
        Tensor even = new Tensor("p.weight_scale", DType.U8, new long[] {2, 3}, MemorySegment.ofArray(new byte[] {127, 127, 127, 127, 127, 127}));
        float[] row = new float[6];
        new Fp4Matrix(Fp4Matrix.Form.MXFP4, codes, even, null).copyRow(0, row, 0);
        assertEquals(List.of(0.5f, 1f, 1.5f, 2f, 3f, 4f), List.of(row[0], row[1], row[2], row[3], row[4], row[5]), "E2M1 codes 1..6 at scale 2^0, low nibble first");
    }

    /** GPTQModel's gptq_v2 format stores the zero itself: read with the +1 it dequantizes otherwise. */
    @Test
    void gptqV2StoresTheZeroItself() throws IOException {
        Path v2 = Files.createDirectories(dir.resolve("v2"));
        Files.copy(FOLDER.resolve("gptq-act-order/model.safetensors"), v2.resolve("model.safetensors"));
        Files.writeString(v2.resolve("config.json"), Files.readString(FOLDER.resolve("gptq-act-order/config.json"))
                .replace("\"quant_method\": \"gptq\"", "\"quant_method\": \"gptq\", \"checkpoint_format\": \"gptq_v2\""));
        try (Model v1 = Models.open(FOLDER.resolve("gptq-act-order")); Model m = Models.open(v2)) {
            assertEquals("gptq_v2", m.metadata().get(PackedIntMatrix.QUANT_FORMAT));
            float[] a = v1.layers().get(0).matrix().toDense();
            float[] b = m.layers().get(0).matrix().toDense();
            int moved = 0;
            for (int i = 0; i < a.length; i++) if (a[i] != b[i]) moved++;
            assertTrue(moved > a.length / 2, "every code is read against a zero one lower: " + moved);
        }
    }

    /** Tensors that do not make one weight are named in one note and left out, and are no layers of their own. */
    @Test
    void packedTensorsThatDisagreeAreNamedAndLeftOut() throws IOException {
        String p = "model.layers.0.mlp.down_proj";
        int[] words = new int[16 * 4];
        Path file = dir.resolve("bad.safetensors");
        SafetensorsWriter.write(file, List.of(
                new Tensor(p + ".qweight", DType.I32, new long[] {16, 4}, MemorySegment.ofArray(words)),
                Tensor.ofFloats(p + ".scales", new long[] {1, 6}, new float[6]),
                new Tensor(p + ".qzeros", DType.I32, new long[] {1, 1}, MemorySegment.ofArray(new int[1]))), Map.of());
        try (Model m = Models.open(file)) {
            assertTrue(m.layers().isEmpty(), m.layers().toString());
            assertTrue(m.metadata().get("packed.skipped").contains(p + ": " + p + ".qweight [16, 4] is neither GPTQ's"), m.metadata().toString());
            assertNull(m.metadata().get("tensors.skipped"), "named once");
        }
        int[] g = new int[128];
        g[3] = 9;
        Path badGroups = dir.resolve("groups.safetensors");
        SafetensorsWriter.write(badGroups, List.of(
                new Tensor(p + ".qweight", DType.I32, new long[] {16, 8}, MemorySegment.ofArray(new int[128])),
                Tensor.ofFloats(p + ".scales", new long[] {4, 8}, new float[32]),
                new Tensor(p + ".qzeros", DType.I32, new long[] {4, 1}, MemorySegment.ofArray(new int[4])),
                new Tensor(p + ".g_idx", DType.I32, new long[] {128}, MemorySegment.ofArray(g))), Map.of());
        try (Model m = Models.open(badGroups)) {
            assertTrue(m.layers().isEmpty());
            assertTrue(m.metadata().get("packed.skipped").contains("g_idx[3] = 9, outside the 4 groups"), m.metadata().toString());
        }
    }

    /**
     * An HQQ state whose packing names no packing of hqq's, or whose codes do not fill the shape it
     * claims, and an AQLM set whose codebooks are no power of two: each named in the note, none a
     * layer, its tensors (the state's small ones included) claimed.
     */
    @Test
    void hqqAndAqlmSetsThatDoNotHoldTogetherAreNamedAndLeftOut() throws IOException {
        byte[] hqq = Files.readAllBytes(FOLDER.resolve("hqq4/model.safetensors"));
        Path renamed = dir.resolve("hqq5.safetensors");
        Files.write(renamed, replace(hqq, "4bit_u8", "5bit_u8"));
        try (Model m = Models.open(renamed)) {
            assertTrue(m.layers().isEmpty(), m.layers().toString());
            assertTrue(m.metadata().get("packed.skipped").contains("packing '5bit_u8' is none of"), m.metadata().toString());
            assertNull(m.metadata().get("tensors.skipped"), "the state's tensors are claimed, not integer weights left out");
        }
        String p = "model.layers.0.mlp.up_proj";
        Path aqlm = dir.resolve("aqlm.safetensors");
        SafetensorsWriter.write(aqlm, List.of(
                new Tensor(p + ".codes", DType.I8, new long[] {4, 2, 1}, MemorySegment.ofArray(new byte[8])),
                Tensor.ofFloats(p + ".codebooks", new long[] {1, 3, 1, 8}, new float[24]),
                Tensor.ofFloats(p + ".scales", new long[] {4, 1, 1, 1}, new float[4])), Map.of());
        try (Model m = Models.open(aqlm)) {
            assertTrue(m.layers().isEmpty(), m.layers().toString());
            assertTrue(m.metadata().get("packed.skipped").contains("3 entries a codebook is not a power of two"), m.metadata().toString());
        }
    }

    /** {@code bytes} with the first occurrence of {@code from} (ASCII) replaced by {@code to}, of the same length. */
    private static byte[] replace(byte[] bytes, String from, String to) {
        byte[] f = from.getBytes(StandardCharsets.US_ASCII);
        outer:
        for (int i = 0; i + f.length <= bytes.length; i++) {
            for (int j = 0; j < f.length; j++) if (bytes[i + j] != f[j]) continue outer;
            byte[] out = bytes.clone();
            System.arraycopy(to.getBytes(StandardCharsets.US_ASCII), 0, out, i, f.length);
            return out;
        }
        throw new AssertionError(from + " not found");
    }
}
