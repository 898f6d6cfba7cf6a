package dev.sparseprof.model;

import static dev.sparseprof.model.OnnxReaderTest.assertFault;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.model.TorchFixtures.Pickle;
import dev.sparseprof.util.DType;
import dev.sparseprof.util.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TorchScript archives ({@code torch.jit.save}) and torch.export's PT2 archive ({@code .pt2}): real ones
 * written by torch (scripted, traced, fp16, exported; {@code src/test/resources/torchscript/generate.py})
 * read to the state dict torch itself loads, and the module-tree pickle's extra rules refused outside
 * them.
 */
class TorchScriptTest {
    private static final Path FOLDER = Path.of("src/test/resources/torchscript");

    @TempDir Path dir;

    @Test
    void torchJitSaveArchivesReadAsTheStateDictTorchLoads() throws IOException {
        Map<String, Object> expected = Json.parseObject(Files.readString(FOLDER.resolve("expected.json")));
        @SuppressWarnings("unchecked")
        Map<String, Object> files = (Map<String, Object>) expected.get("files");
        int read = 0;
        for (Map.Entry<String, Object> file : files.entrySet()) {
            if (!(file.getValue() instanceof List<?> tensors)) continue;
            try (Model m = Models.open(FOLDER.resolve(file.getKey()))) {
                assertEquals("torch", m.format(), file.getKey());
                Map<String, Tensor> byName = new LinkedHashMap<>();
                for (Tensor t : m.tensors()) byName.put(t.name(), t);
                List<String> names = new ArrayList<>();
                for (Object o : tensors) {
                    Map<?, ?> want = (Map<?, ?>) o;
                    String name = (String) want.get("name");
                    names.add(name);
                    Tensor t = byName.get(name);
                    String where = file.getKey() + " " + name;
                    assertEquals(want.get("shape").toString(), Arrays.toString(t.shape()), where);
                    assertEquals(DType.parse((String) want.get("dtype")), t.dtype(), where);
                    long nonZeros = 0;
                    for (long i = 0; i < t.elementCount(); i++) nonZeros += t.isZero(i) ? 0 : 1;
                    assertEquals(((Number) want.get("nnz")).longValue(), nonZeros, where);
                }
                // exactly the state dict: an LSTM's _flat_weights list names none of its tensors again
                assertEquals(names, List.copyOf(byName.keySet()), file.getKey());
                assertEquals(List.of("conv.weight", "lstm.weight_ih_l0", "lstm.weight_hh_l0", "fc.weight"),
                        m.layers().stream().map(GemmLayer::name).filter(n -> !n.equals("table")).toList(), file.getKey());
                if (file.getKey().endsWith(".pt2")) {
                    // the program's signature says which inputs are registered buffers: the 2-D lookup table is no layer
                    assertTrue(m.layers().stream().noneMatch(l -> l.name().equals("table")), file.getKey());
                    assertEquals("4 registered buffer(s) by the program's signature, tensors but no layers: table, bn.running_mean, bn.running_var, "
                            + "bn.num_batches_tracked", m.metadata().get("torch.buffers"));
                    assertTrue(byName.containsKey("table"), "still a tensor");
                }
                read++;
            }
        }
        assertEquals(4, read, "scripted, traced, fp16 and the torch.export archive");
        assertFault(FOLDER.resolve("quantized-dynamic.pt"), "refusing pickle global torch._utils._rebuild_qtensor");
    }

    @Test
    void aScriptModuleOfOurOwnNamesItsParametersByAttributePath() throws IOException {
        Pickle p = scriptModule(new Pickle(), "M");
        p.str("fc");
        scriptModule(p, "torch.nn.modules.linear.Linear").str("weight").tensor("FloatStorage", "0", 12, 0, new long[] {3, 4}, new long[] {4, 1});
        p.op('u').op('b'); // fc's attributes
        p.op('u').op('b').op('.'); // M's
        try (Model m = Models.open(write("net.pt", script(p.bytes())))) {
            assertEquals(List.of("fc.weight"), m.tensors().stream().map(Tensor::name).toList());
            assertEquals("2", m.metadata().get("torch.nonTensorValues")); // the two modules' training flags
        }
    }

    @Test
    void theModuleTreeRulesHoldOnlyInsideATorchScriptArchiveAndOnlyAsData() throws IOException {
        // a plain torch.save pickle may not name a TorchScript class
        Pickle plain = new Pickle().global("__torch__", "M").op(')').op(0x81).op('.');
        assertFault(write("plain.pt", TorchFixtures.archive("archive", plain.bytes(), TorchFixtures.floats(S0))), "refusing pickle global __torch__.M");
        assertFault(write("args.pt", script(new Pickle().global("__torch__", "M").tuple(1).op(0x81).op('.').bytes())),
                "NEWOBJ of __torch__.M with a 1-tuple");
        assertFault(hostileScript("os.pt", p -> p.global("os", "system")), "refusing pickle global os.system");
        assertFault(hostileScript("dunder.pt", p -> p.global("__torch__.x", "__import__('os')")), "global __torch__.x.__import__('os')");
        assertFault(hostileScript("call.pt", p -> p.global("__torch__", "M").op(')').op('R')), "REDUCE of __torch__.M");
        assertFault(hostileScript("newobj.pt", p -> p.global("collections", "OrderedDict").op(')').op(0x81)), "NEWOBJ of collections.OrderedDict");
        Map<String, byte[]> noModule = script(new Pickle().op('}').op('.').bytes());
        noModule.remove("archive/data.pkl");
        assertFault(write("nomodule.pt", noModule), "a TorchScript archive without its module");
    }

    /** A PT2 archive whose weights config lies: each fault is one line naming the weight. */
    @Test
    void aPt2ArchiveThatLiesIsOneLine() throws IOException {
        String meta = "\"tensor_meta\": {\"dtype\": 7, \"sizes\": [{\"as_int\": 3}, {\"as_int\": 4}], \"strides\": [{\"as_int\": 4}, {\"as_int\": 1}], "
                + "\"storage_offset\": {\"as_int\": 0}}";
        Map<String, String> lies = new LinkedHashMap<>();
        lies.put("escape", "{\"w\": {\"path_name\": \"../../x\", " + meta + "}}");
        lies.put("missing", "{\"w\": {\"path_name\": \"weight_9\", " + meta + "}}");
        lies.put("pickled", "{\"w\": {\"path_name\": \"weight_0\", \"use_pickle\": true, " + meta + "}}");
        lies.put("symbolic", "{\"w\": {\"path_name\": \"weight_0\", " + meta.replace("{\"as_int\": 3}", "{\"as_expr\": \"s0\"}") + "}}");
        lies.put("view", "{\"w\": {\"path_name\": \"weight_0\", " + meta.replace("{\"as_int\": 3}", "{\"as_int\": 30}") + "}}");
        lies.put("dtype", "{\"w\": {\"path_name\": \"weight_0\", " + meta.replace("\"dtype\": 7", "\"dtype\": 10") + "}}");
        Map<String, String> want = Map.of("escape", "refusing zip entry '../../x' with '..'", "missing", "weight 'w': data/weights/weight_9 is not in the archive",
                "pickled", "weight 'w' is pickled (a tensor subclass)", "symbolic", "weight 'w': sizes {as_expr=s0} is not a plain integer",
                "view", "weight 'w': tensor view [30, 4]", "dtype", "weight 'w': dtype code 10 is not one sparseprof reads");
        for (Map.Entry<String, String> lie : lies.entrySet()) {
            Map<String, byte[]> m = new LinkedHashMap<>();
            m.put("a/archive_format", "pt2".getBytes(StandardCharsets.US_ASCII));
            m.put("a/data/weights/model_weights_config.json", ("{\"config\": " + lie.getValue() + "}").getBytes(StandardCharsets.UTF_8));
            m.put("a/data/weights/weight_0", TorchFixtures.floats(S0));
            assertFault(write(lie.getKey() + ".pt2", m), want.get(lie.getKey()));
        }
    }

    private static final float[] S0 = TorchZipTest.S0;

    /** {@code __torch__.TYPE} NEWOBJ'd with no arguments, its attribute dict opened with {@code training: True}. */
    private static Pickle scriptModule(Pickle p, String type) {
        int dot = type.lastIndexOf('.');
        p.global(dot < 0 ? "__torch__" : "__torch__." + type.substring(0, dot), type.substring(dot + 1)).op(')').op(0x81);
        return p.op('}').mark().str("training").op(0x88);
    }

    /** The entries of a torch.jit.save archive around {@code pickle}: a constants.pkl beside it marks it TorchScript. */
    private static Map<String, byte[]> script(byte[] pickle) {
        Map<String, byte[]> m = new LinkedHashMap<>(TorchFixtures.archive("archive", pickle, TorchFixtures.floats(S0)));
        m.put("archive/constants.pkl", new Pickle().op(')').op('.').bytes());
        return m;
    }

    private Path hostileScript(String name, Consumer<Pickle> body) throws IOException {
        Pickle p = new Pickle();
        body.accept(p);
        return write(name, script(p.op('.').bytes()));
    }

    private Path write(String name, Map<String, byte[]> entries) throws IOException {
        Path file = dir.resolve(name);
        TorchFixtures.zip(file, entries);
        return file;
    }
}
