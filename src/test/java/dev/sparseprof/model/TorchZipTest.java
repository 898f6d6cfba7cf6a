package dev.sparseprof.model;

import static dev.sparseprof.model.OnnxReaderTest.assertFault;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.model.TorchFixtures.Pickle;
import dev.sparseprof.util.DType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** torch.save zips through the restricted unpickler: a benign state dict, then every refusal. */
class TorchZipTest {
    @TempDir Path dir;

    static final float[] S0 = {1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0}; // storage 0: 12 floats

    /** fc.weight [3,4] = storage 0; fc_t.weight = its transpose [4,3] (stride 1,4); tail.weight [2,4] at offset 4; emb.weight fp16 [5,2]; fc.bias. */
    static byte[] stateDict() {
        Pickle p = new Pickle().beginStateDict();
        p.str("fc.weight").tensor("FloatStorage", "0", 12, 0, new long[] {3, 4}, new long[] {4, 1});
        p.str("fc_t.weight").tensor("FloatStorage", "0", 12, 0, new long[] {4, 3}, new long[] {1, 4});
        p.str("tail.weight").tensor("FloatStorage", "0", 12, 4, new long[] {2, 4}, new long[] {4, 1});
        p.str("embed.weight").tensor("HalfStorage", "1", 10, 0, new long[] {5, 2}, new long[] {2, 1});
        p.str("fc.bias");
        p.global("torch._utils", "_rebuild_parameter").mark();
        p.tensor("FloatStorage", "2", 3, 0, new long[] {3}, new long[] {1}).op(0x88).global("collections", "OrderedDict").op(')').op('R').op('t').op('R');
        return p.endStateDict().bytes();
    }

    static byte[][] storages() {
        return new byte[][] {TorchFixtures.floats(S0), TorchFixtures.halves(0, 1, 0, 2, 0, 3, 0, 4, 0, 5), TorchFixtures.floats(7, 8, 9)};
    }

    Path write(String name, Map<String, byte[]> entries) throws IOException {
        Path p = dir.resolve(name);
        TorchFixtures.zip(p, entries);
        return p;
    }

    @Test
    void aStateDictLoadsWithViewsOffsetsAndSharedStorages() throws IOException {
        Path file = write("pytorch_model.bin", TorchFixtures.archive("pytorch_model", stateDict(), storages()));
        try (Model m = Models.open(file)) {
            assertEquals("torch", m.format());
            assertEquals("pytorch_model", m.metadata().get("torch.archive"));
            assertEquals("3", m.metadata().get("torch.version"));
            assertEquals(List.of("fc.weight", "fc_t.weight", "tail.weight", "embed.weight", "fc.bias"), m.tensors().stream().map(Tensor::name).toList());
            assertArrayEquals(S0, m.layers().get(0).matrix().toDense());
            float[] t = m.layers().get(1).matrix().toDense();
            assertEquals(4, m.layers().get(1).rows());
            for (int r = 0; r < 4; r++) for (int c = 0; c < 3; c++) assertEquals(S0[c * 4 + r], t[r * 3 + c], "transposed view");
            assertArrayEquals(Arrays.copyOfRange(S0, 4, 12), m.layers().get(2).matrix().toDense(), "offset view");
            assertEquals(LayerKind.EMBEDDING_GATHER, m.layers().get(3).kind());
            assertEquals(DType.F16, m.tensors().get(3).dtype());
            assertArrayEquals(new float[] {0, 1, 0, 2, 0, 3, 0, 4, 0, 5}, m.layers().get(3).matrix().toDense());
            assertEquals(8.0f, m.tensors().get(4).getFloat(1), "a Parameter is its tensor");
            assertEquals(4, m.layers().size(), "the bias is not a layer");
        }
    }

    @Test
    void aHuggingFaceFolderOfTorchShardsIsRead() throws IOException {
        Path folder = Files.createDirectories(dir.resolve("hf"));
        TorchFixtures.zip(folder.resolve("pytorch_model-00001-of-00002.bin"), TorchFixtures.archive("archive", stateDict(), storages()));
        Pickle p = new Pickle().beginStateDict();
        p.str("model.layers.0.mlp.up_proj.weight").tensor("FloatStorage", "0", 12, 0, new long[] {3, 4}, new long[] {4, 1});
        TorchFixtures.zip(folder.resolve("pytorch_model-00002-of-00002.bin"), TorchFixtures.archive("archive", p.endStateDict().bytes(), TorchFixtures.floats(S0)));
        StringBuilder map = new StringBuilder();
        for (String n : List.of("fc.weight", "fc_t.weight", "tail.weight", "embed.weight", "fc.bias")) {
            map.append('"').append(n).append("\": \"pytorch_model-00001-of-00002.bin\", ");
        }
        map.append("\"model.layers.0.mlp.up_proj.weight\": \"pytorch_model-00002-of-00002.bin\"");
        Files.writeString(folder.resolve("pytorch_model.bin.index.json"), "{\"metadata\": {}, \"weight_map\": {" + map + "}}");
        try (Model m = Models.open(folder)) {
            assertEquals("torch", m.metadata().get("hf.weights"));
            assertEquals(6, m.tensors().size());
            assertEquals(5, m.layers().size());
        }
    }

    /** A state dict whose one entry is written by {@code body} (after the key), then the file opened. */
    Path hostile(String name, Consumer<Pickle> body) throws IOException {
        Pickle p = new Pickle().beginStateDict().str("w");
        body.accept(p);
        return write(name, TorchFixtures.archive("archive", p.endStateDict().bytes(), storages()));
    }

    @Test
    void aParameterPrunedWithTorchsPruneUtilityIsTheOneLayerOfItsMaskedWeight() throws IOException {
        // torch.nn.utils.prune.l1_unstructured(fc, 'weight') then state_dict(): fc.weight_orig (dense),
        // fc.weight_mask (0/1 floats) and fc.bias, until prune.remove makes it fc.weight again
        float[] orig = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
        float[] mask = {1, 0, 1, 0, 0, 1, 1, 0, 1, 1, 0, 0};
        Pickle p = new Pickle().beginStateDict();
        p.str("fc.weight_orig").tensor("FloatStorage", "0", 12, 0, new long[] {3, 4}, new long[] {4, 1});
        p.str("fc.weight_mask").tensor("FloatStorage", "1", 12, 0, new long[] {3, 4}, new long[] {4, 1});
        Path file = write("pruned.pt", TorchFixtures.archive("pruned", p.endStateDict().bytes(), TorchFixtures.floats(orig), TorchFixtures.floats(mask)));
        try (Model m = Models.open(file)) {
            assertEquals(1, m.layers().size(), m.layers().toString());
            GemmLayer l = m.layers().get(0);
            assertEquals("fc.weight", l.name());
            assertEquals("fc.weight_orig", l.tensorName(), "pruning writes into the orig");
            float[] effective = l.matrix().toDense();
            for (int i = 0; i < 12; i++) assertEquals(orig[i] * mask[i], effective[i], "element " + i);
            // the stored-bits path agrees with the decoded rows
            long[] words = new long[1];
            int[] rowCounts = {2, 2, 2};
            for (int r = 0; r < 3; r++) {
                assertEquals(rowCounts[r], l.matrix().nonZeroBits(r, words), "row " + r);
                for (int c = 0; c < 4; c++) assertEquals(effective[r * 4 + c] != 0, (words[0] >>> c & 1) == 1, "row " + r + " col " + c);
            }
        }
    }

    /** {@code _rebuild_tensor_v3(UntypedStorage of numel bytes, offset, size, stride, False, OrderedDict(), torch.DTYPE)}, as torch 2.x saves fp8. */
    private static Pickle tensorV3(Pickle p, String dtype, String key, long bytes, long offset, long[] size, long[] stride) {
        p.global("torch._utils", "_rebuild_tensor_v3");
        p.mark();
        p.mark().str("storage").global("torch.storage", "UntypedStorage").str(key).str("cpu").integer(bytes).op('t').op('Q');
        p.integer(offset).tuple(size).tuple(stride).op(0x89);
        p.global("collections", "OrderedDict").op(')').op('R');
        p.global("torch", dtype);
        return p.op('t').op('R');
    }

    @Test
    void untypedStoragesOfTorch2sRebuildTensorV3AreReadInTheirNamedDtype() throws IOException {
        // fp8 e4m3fn codes: 0x38 = 1.0, 0x40 = 2.0, 0xB8 = -1.0, 0x00 = 0; a 2x2 view at element offset 2
        byte[] fp8 = {0x00, 0x38, 0x40, 0x00, (byte) 0xB8, 0x38};
        Pickle p = new Pickle().beginStateDict();
        p.str("w8");
        tensorV3(p, "float8_e4m3fn", "0", 6, 2, new long[] {2, 2}, new long[] {2, 1});
        Path file = write("fp8.pt", TorchFixtures.archive("fp8", p.endStateDict().bytes(), fp8));
        try (Model m = Models.open(file)) {
            GemmLayer l = m.layers().get(0);
            assertEquals(DType.F8_E4M3, l.storedDType());
            assertArrayEquals(new float[] {2, 0, -1, 1}, l.matrix().toDense());
        }
        // torch.save(tensor): no key to name it by, so it takes the archive's (the file's stem)
        Pickle bare = new Pickle().tensor("FloatStorage", "0", 12, 0, new long[] {3, 4}, new long[] {4, 1}).op('.');
        try (Model m = Models.open(write("single.pt", TorchFixtures.archive("single", bare.bytes(), TorchFixtures.floats(S0))))) {
            assertEquals("single", m.layers().get(0).name());
        }
        Pickle odd = new Pickle().beginStateDict();
        odd.str("w");
        tensorV3(odd, "bfloat16", "0", 5, 0, new long[] {2}, new long[] {1});
        assertFault(write("odd.pt", TorchFixtures.archive("odd", odd.endStateDict().bytes(), new byte[5])), "5 bytes is no whole number of torch.bfloat16");
        Pickle complex = new Pickle().beginStateDict();
        complex.str("w");
        tensorV3(complex, "complex64", "0", 8, 0, new long[] {1}, new long[] {1});
        assertFault(write("complex.pt", TorchFixtures.archive("complex", complex.endStateDict().bytes(), new byte[8])), "refusing pickle global torch.complex64");
    }

    @Test
    void everyGlobalAndCallOutsideTheAllowListIsRefusedNamingIt() throws IOException {
        assertFault(hostile("os.pt", p -> p.global("os", "system").str("echo pwned").op(0x85).op('R')), "refusing pickle global os.system");
        assertFault(hostile("posix.pt", p -> p.global("posix", "system")), "global posix.system");
        assertFault(hostile("eval.pt", p -> p.stackGlobal("builtins", "eval")), "global builtins.eval");
        assertFault(hostile("getattr.pt", p -> p.stackGlobal("builtins", "getattr")), "global builtins.getattr");
        assertFault(hostile("subclass.pt", p -> p.global("torch._tensor", "_rebuild_from_type_v2")), "global torch._tensor._rebuild_from_type_v2");
        assertFault(hostile("module.pt", p -> p.global("__main__", "Net")), "global __main__.Net, a pickled Net object as torch.save(model) writes; save model.state_dict()");
        assertFault(hostile("storagecall.pt", p -> p.global("torch", "FloatStorage").op(')').op('R')), "REDUCE of torch.FloatStorage");
        assertFault(hostile("reducestr.pt", p -> p.str("x").op(')').op('R')), "REDUCE of 'x'");
        assertFault(hostile("odict.pt", p -> p.global("collections", "OrderedDict").tuple(1).op('R')), "REDUCE of collections.OrderedDict with arguments");
        assertFault(hostile("codecs.pt", p -> p.global("_codecs", "encode").mark().str("x").str("utf-16").op('t').op('R')), "_codecs.encode other than");
        assertFault(hostile("build.pt", p -> p.tensor("FloatStorage", "0", 12, 0, new long[] {12}, new long[] {1}).op('}').op('b')), "BUILD on a tensor");
        assertFault(hostile("buildstr.pt", p -> p.str("x").op('}').op('b')), "BUILD on 'x'");
        assertFault(hostile("inst.pt", p -> p.mark().op('i').raw("os\nsystem\n".getBytes())), "INST os.system");
        assertFault(hostile("obj.pt", p -> p.mark().global("collections", "OrderedDict").op('o')), "OBJ of collections.OrderedDict");
        assertFault(hostile("newobj.pt", p -> p.global("collections", "OrderedDict").op(')').op(0x81)), "NEWOBJ of collections.OrderedDict");
        assertFault(hostile("newobjex.pt", p -> p.global("collections", "OrderedDict").op(')').op('}').op(0x92)), "NEWOBJ_EX of collections.OrderedDict");
        assertFault(hostile("ext.pt", p -> p.op(0x82).op(1)), "EXT1");
        assertFault(hostile("persid.pt", p -> p.op('P').raw("abc\n".getBytes())), "PERSID 'abc'");
        assertFault(hostile("pid.pt", p -> p.str("evil").op('Q')), "persistent id 'evil'");
        assertFault(hostile("buffer.pt", p -> p.op(0x97)), "out-of-band buffer");
    }

    @Test
    void storagesAndViewsThatLieAreOneLine() throws IOException {
        assertFault(hostile("missing.pt", p -> p.tensor("FloatStorage", "9", 12, 0, new long[] {12}, new long[] {1})), "storage data/9 is not in the archive");
        assertFault(hostile("numel.pt", p -> p.tensor("FloatStorage", "0", 1000, 0, new long[] {12}, new long[] {1})), "holds 48 bytes, its id claims 1000 x FloatStorage");
        assertFault(hostile("view.pt", p -> p.tensor("FloatStorage", "0", 12, 0, new long[] {4, 4}, new long[] {4, 1})), "reaches element 15 of storage data/0 of 12");
        assertFault(hostile("offset.pt", p -> p.tensor("FloatStorage", "0", 12, 10, new long[] {3}, new long[] {1})), "reaches element 12");
        assertFault(hostile("broadcast.pt", p -> p.tensor("FloatStorage", "0", 12, 0, new long[] {1000, 12}, new long[] {0, 1})), "a broadcast view; not expanded");
        assertFault(hostile("stype.pt", p -> p.tensor("QInt8Storage", "0", 12, 0, new long[] {12}, new long[] {1})), "global torch.QInt8Storage");
        assertFault(hostile("memo.pt", p -> p.op('j').raw(new byte[] {1, 2, 3, 4})), "memo 67305985 was never stored");
        assertFault(hostile("long.pt", p -> p.op('X').raw(new byte[] {-1, -1, -1, 0x7f})), "BINUNICODE claims 2147483647 bytes");
        assertFault(hostile("underflow.pt", p -> p.op('0').op('0').op('0').op('0')), "MARK where a value was expected");
        // a few hundred bytes naming 2^59 paths: list i holds list i-1 twice (memo references)
        Pickle bomb = new Pickle().op(']').put();
        for (int i = 1; i < 60; i++) bomb.op(']').mark().op('h').op(i - 1).op('h').op(i - 1).op('e').put();
        assertFault(write("bomb.pt", TorchFixtures.archive("archive", bomb.op('.').bytes(), storages())), "refers to its containers over and over");
        Pickle cut = new Pickle().beginStateDict().str("w");
        assertFault(write("nostop.pt", TorchFixtures.archive("archive", cut.bytes(), storages())), "ends without STOP");
    }

    @Test
    void zipsThatEscapeOrAreNotTorchSaveFilesAreRefused() throws IOException {
        Map<String, byte[]> m = TorchFixtures.archive("archive", stateDict(), storages());
        m.put("archive/../../evil.sh", new byte[] {1});
        assertFault(write("dotdot.pt", m), "refusing zip entry 'archive/../../evil.sh' with '..'");
        m = TorchFixtures.archive("archive", stateDict(), storages());
        m.put("/etc/cron.d/x", new byte[] {1});
        assertFault(write("absolute.pt", m), "refusing zip entry '/etc/cron.d/x' (absolute");
        m = TorchFixtures.archive("archive", stateDict(), storages());
        m.put("other/data/0", new byte[] {1});
        assertFault(write("twotops.pt", m), "zip entry 'other/data/0' is outside the archive's one top folder 'archive'");
        m = new LinkedHashMap<>(TorchFixtures.archive("archive", stateDict(), storages()));
        m.put("archive/byteorder", "big".getBytes());
        assertFault(write("big.pt", m), "byteorder 'big'");
        m = new LinkedHashMap<>(TorchFixtures.archive("archive", stateDict(), storages()));
        m.remove("archive/data.pkl");
        m.put("archive/constants.pkl", new byte[] {'.'});
        assertFault(write("script.pt", m), "TorchScript");
        Path legacy = dir.resolve("legacy.pth");
        Files.write(legacy, new byte[] {(byte) 0x80, 2, (byte) 0x8a, 10, 0x6c, (byte) 0xfc, (byte) 0x9c, 0x46, (byte) 0xf9, 0x20, 0x6a, (byte) 0xa8, 0x50, 0x19});
        assertFault(legacy, "legacy (pre-1.6, not zip) torch.save format");
        byte[] good = Files.readAllBytes(write("good.pt", TorchFixtures.archive("archive", stateDict(), storages())));
        Path cut = dir.resolve("cut.pt");
        Files.write(cut, Arrays.copyOf(good, good.length - 30));
        assertFault(cut, "cut.pt: ");
        Path compressed = dir.resolve("deflated.pt");
        try (var z = new ZipOutputStream(Files.newOutputStream(compressed))) {
            z.putNextEntry(new ZipEntry("archive/data.pkl"));
            z.write(stateDict());
            z.closeEntry();
        }
        assertFault(compressed, "is compressed (method 8)");
    }

    /** PyTorch's tutorial form of a training checkpoint: the model's entry is the model; the optimizer's moments are named, not layers. */
    @Test
    void aTrainingCheckpointIsReadAsItsModelEntry() throws IOException {
        Pickle p = new Pickle().op('}').put().mark();
        p.str("epoch").integer(3);
        p.str("model_state_dict").op('}').put().mark();
        p.str("fc.weight").tensor("FloatStorage", "0", 12, 0, new long[] {3, 4}, new long[] {4, 1});
        p.op('u');
        p.str("optimizer_state_dict").op('}').put().mark().str("state").op('}').put().mark().integer(0).op('}').put().mark();
        p.str("exp_avg").tensor("FloatStorage", "0", 12, 0, new long[] {3, 4}, new long[] {4, 1});
        p.op('u').op('u').op('u');
        p.op('u').op('.');
        try (Model m = Models.open(write("checkpoint.ckpt", TorchFixtures.archive("archive", p.bytes(), storages())))) {
            assertEquals(List.of("fc.weight"), m.layers().stream().map(GemmLayer::name).toList());
            assertEquals("a training checkpoint: the model is its 'model_state_dict' entry; left out of the layers: optimizer_state_dict (1 tensor) "
                    + "(optimizer moments, EMA copies and the like)", m.metadata().get("torch.skipped"));
        }
    }

    @Test
    void aPickleOfNestedCheckpointValuesKeepsTensorsAndCountsTheRest() throws IOException {
        Pickle p = new Pickle().op('}').put().mark();
        p.str("epoch").integer(3).str("state_dict").op('}').put().mark();
        p.str("model.fc.weight").tensor("FloatStorage", "0", 12, 0, new long[] {3, 4}, new long[] {4, 1});
        p.op('u').str("lr").op('G').raw(new byte[] {0x3f, 0x50, 0x62, 0x4d, (byte) 0xd2, (byte) 0xf1, (byte) 0xa9, (byte) 0xfc});
        p.op('u').op('.');
        try (Model m = Models.open(write("lightning.pt", TorchFixtures.archive("archive", p.bytes(), storages())))) {
            assertEquals(List.of("model.fc.weight"), m.tensors().stream().map(Tensor::name).toList());
            assertEquals("2", m.metadata().get("torch.nonTensorValues"));
        }
        assertTrue(true);
    }
}
