package dev.sparseprof.model;

import dev.sparseprof.util.DType;
import dev.sparseprof.util.Json;
import dev.sparseprof.util.SparseprofException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The weights of a PT2 archive, as {@code torch.export.save} writes it ({@code *.pt2}): the same kind of
 * zip as torch.save's ({@link StoredZip}, one top folder), holding {@code archive_format},
 * {@code models/NAME.json} (the exported program, not read) and, per model,
 * {@code data/weights/NAME_weights_config.json}: each parameter and buffer by its state-dict name
 * ({@code fc.weight}), with the archive entry of its bytes ({@code path_name} under
 * {@code data/weights/}), its dtype (torch.export's ScalarType code), sizes, strides and storage
 * offset. Each entry is one tensor's storage, read as torch.save's are ({@link TorchPickle#view}
 * checks the view against it; contiguous views are slices of the mapped file). A weight stored as a
 * pickle ({@code use_pickle}: a tensor subclass), a symbolic size, or a dtype sparseprof does not
 * read is refused in one line; the sample inputs and constants are not read. Of the program
 * ({@code models/NAME.json}) only its signature is read: the inputs it lifts from registered buffers
 * ({@code input_specs[].buffer.buffer_name}: a lookup table, a BatchNorm's running statistics) are
 * tensors but no layers ({@link #buffers}), which a plain state dict cannot tell from weights. With
 * several models in one archive, names take the model's name before them.
 */
final class Pt2Archive {
    private static final String WEIGHTS = "/data/weights/";
    private static final String CONFIG = "_weights_config.json";
    /** A weights config's size limit: a few hundred bytes a weight, so 100 MB holds hundreds of thousands of them. */
    static final long MAX_CONFIG_BYTES = 100_000_000L;
    /** torch.export's serialized ScalarType codes ({@code torch/_export/serde/schema.py}) of the dtypes read here. */
    private static final Map<Long, DType> DTYPES = Map.ofEntries(Map.entry(1L, DType.U8), Map.entry(2L, DType.I8), Map.entry(3L, DType.I16),
            Map.entry(4L, DType.I32), Map.entry(5L, DType.I64), Map.entry(6L, DType.F16), Map.entry(7L, DType.F32), Map.entry(8L, DType.F64),
            Map.entry(12L, DType.BOOL), Map.entry(13L, DType.BF16), Map.entry(28L, DType.U16), Map.entry(29L, DType.F8_E4M3),
            Map.entry(30L, DType.F8_E5M2));

    private Pt2Archive() {}

    /** Whether {@code top}'s entries are a PT2 archive's. */
    static boolean is(StoredZip.Listing zip, String top) {
        return zip.has(top + "/archive_format");
    }

    /** Every model's weights, named by state-dict name (prefixed by the model's name where there are several). */
    static List<Tensor> tensors(String source, String top, StoredZip.Listing zip, Arena arena, Map<String, String> metadata) {
        List<String> models = models(top, zip);
        if (models.isEmpty()) throw ModelFormatException.in(source, "PT2 archive (torch.export.save) without a data/weights/*" + CONFIG);
        MemorySegment format = zip.stored(source, top + "/archive_format");
        metadata.put("torch.archive", top);
        metadata.put("torch.pt2", "torch.export archive " + new String(format.toArray(ValueLayout.JAVA_BYTE), StandardCharsets.US_ASCII).strip()
                + ": parameters and buffers by their state-dict names; of the exported program only its signature is read, constants not");
        List<Tensor> tensors = new ArrayList<>();
        for (String model : models) {
            String config = top + WEIGHTS + model + CONFIG;
            String prefix = models.size() > 1 ? model + "." : "";
            Map<String, Object> json = parse(source, config, zip.stored(source, config));
            if (!(json.get("config") instanceof Map<?, ?> weights)) throw ModelFormatException.in(source, config + " has no config object");
            for (Map.Entry<?, ?> w : weights.entrySet()) {
                tensors.add(tensor(source, top, zip, arena, prefix + w.getKey(), w.getValue()));
            }
        }
        if (tensors.isEmpty()) throw ModelFormatException.in(source, "holds no weights");
        return tensors;
    }

    /**
     * The state-dict names of the registered buffers of every model in the archive, from each
     * program's signature ({@code models/NAME.json}: {@code graph_module.signature.input_specs}, the
     * {@code buffer} entries), prefixed as {@link #tensors} prefixes names; none for a model whose
     * program is missing.
     */
    static Set<String> buffers(String source, String top, StoredZip.Listing zip) {
        List<String> models = models(top, zip);
        Set<String> buffers = new LinkedHashSet<>();
        for (String model : models) {
            String entry = top + "/models/" + model + ".json";
            MemorySegment program = zip.stored(source, entry);
            if (program == null) continue;
            Object signature = path(parse(source, entry, program), "graph_module", "signature", "input_specs");
            if (!(signature instanceof List<?> specs)) continue;
            for (Object spec : specs) {
                if (path(spec, "buffer", "buffer_name") instanceof String b) buffers.add((models.size() > 1 ? model + "." : "") + b);
            }
        }
        return buffers;
    }

    /** The archive's model names: one per {@code data/weights/NAME_weights_config.json}, in the zip's order. */
    private static List<String> models(String top, StoredZip.Listing zip) {
        String dir = top + WEIGHTS;
        List<String> models = new ArrayList<>();
        for (String name : zip.names()) {
            if (name.startsWith(dir) && name.endsWith(CONFIG) && name.indexOf('/', dir.length()) < 0) {
                models.add(name.substring(dir.length(), name.length() - CONFIG.length()));
            }
        }
        return models;
    }

    /** {@code root[k0][k1]...}, or null where a step is not a map holding the key. */
    private static Object path(Object root, String... keys) {
        Object at = root;
        for (String k : keys) {
            if (!(at instanceof Map<?, ?> m)) return null;
            at = m.get(k);
        }
        return at;
    }

    private static Tensor tensor(String source, String top, StoredZip.Listing zip, Arena arena, String name, Object entry) {
        if (!(entry instanceof Map<?, ?> w) || !(w.get("path_name") instanceof String path) || !(w.get("tensor_meta") instanceof Map<?, ?> meta)) {
            throw ModelFormatException.in(source, "weight '" + name + "': no path_name and tensor_meta");
        }
        if (Boolean.TRUE.equals(w.get("use_pickle"))) {
            throw ModelFormatException.in(source, "weight '" + name + "' is pickled (a tensor subclass), not read");
        }
        StoredZip.checkName(source, path);
        if (path.contains("/")) throw ModelFormatException.in(source, "weight '" + name + "': path_name '" + path + "' leaves data/weights/");
        DType dtype = DTYPES.get(meta.get("dtype") instanceof Long d ? d : -1L);
        if (dtype == null) throw ModelFormatException.in(source, "weight '" + name + "': dtype code " + meta.get("dtype") + " is not one sparseprof reads");
        long[] sizes = ints(source, name, "sizes", meta.get("sizes"));
        long[] strides = ints(source, name, "strides", meta.get("strides"));
        long offset = meta.get("storage_offset") == null ? 0 : ints(source, name, "storage_offset", List.of(meta.get("storage_offset")))[0];
        MemorySegment bytes = zip.stored(source, top + WEIGHTS + path);
        if (bytes == null) throw ModelFormatException.in(source, "weight '" + name + "': data/weights/" + path + " is not in the archive");
        if (bytes.byteSize() % dtype.sizeBytes() != 0) {
            throw ModelFormatException.in(source, "weight '" + name + "': " + bytes.byteSize() + " bytes are no whole number of " + dtype.label());
        }
        TorchPickle.Storage storage = new TorchPickle.Storage(path, dtype, bytes.byteSize() / dtype.sizeBytes());
        TorchPickle.TensorRef ref = TorchPickle.view(storage, offset, sizes, strides, what -> ModelFormatException.in(source, "weight '" + name + "': " + what));
        return TorchZipReader.tensor(source, name, ref, bytes, arena);
    }

    /** {@code [{"as_int": 8}, ...]}: the integers; a symbolic size ({@code as_expr}) is refused. */
    private static long[] ints(String source, String name, String what, Object list) {
        if (!(list instanceof List<?> items)) throw ModelFormatException.in(source, "weight '" + name + "': no " + what);
        long[] out = new long[items.size()];
        for (int i = 0; i < out.length; i++) {
            if (!(items.get(i) instanceof Map<?, ?> m) || !(m.get("as_int") instanceof Long v)) {
                throw ModelFormatException.in(source, "weight '" + name + "': " + what + " " + items.get(i) + " is not a plain integer (a symbolic size?)");
            }
            out[i] = v;
        }
        return out;
    }

    private static Map<String, Object> parse(String source, String entry, MemorySegment bytes) {
        if (bytes.byteSize() > MAX_CONFIG_BYTES) throw ModelFormatException.in(source, entry + " of " + bytes.byteSize() + " bytes is over the 100 MB limit");
        try {
            return Json.parseObject(new String(bytes.toArray(ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8));
        } catch (SparseprofException e) {
            throw ModelFormatException.in(source, entry + ": " + e.getMessage());
        }
    }
}
