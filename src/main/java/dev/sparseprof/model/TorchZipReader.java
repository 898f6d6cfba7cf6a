package dev.sparseprof.model;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * PyTorch checkpoints as {@code torch.save} writes them since 1.6 ({@code pytorch_model.bin},
 * {@code *.pt}, {@code *.pth}): a zip ({@link StoredZip}) with one top folder (named after the file,
 * or {@code archive}) holding {@code data.pkl}, the storages {@code data/KEY}, {@code version} and
 * {@code byteorder}. {@code data.pkl} is read by {@link TorchPickle}, a restricted unpickler that
 * executes nothing; each tensor it rebuilds is checked against its storage, then becomes a slice of
 * the mapped file when its view is contiguous (C-order strides), else a copy in C order, made only
 * when the view holds no more elements than its storage (so memory stays bounded by the file).
 *
 * <p>Tensor names are the pickled dicts' keys joined with dots (a state dict's own parameter
 * names; a Lightning-style {@code state_dict.} prefix shared by every tensor is dropped); other
 * values (epochs, strings, hyper-parameters) are counted in the metadata, not kept. Layers follow
 * {@link TensorLayers}. Big-endian archives and the legacy (pre-1.6, non-zip) format are refused in
 * one line.
 *
 * <p>TorchScript archives ({@code torch.jit.save}, also {@code *.pt}) hold a {@code constants.pkl}
 * and deflated {@code code/} beside the same {@code data.pkl} and storages; their pickle is the
 * module tree ({@link TorchPickle#loadScript}), whose tensors take the names a state dict gives
 * them ({@code conv.weight}, {@code lstm.weight_ih_l0}). Neither the code nor the constants are read.
 * PT2 archives ({@code torch.export.save}, {@code *.pt2}) have no {@code data.pkl}: {@link Pt2Archive}.
 */
final class TorchZipReader implements ModelReader {
    static final long MAX_PICKLE_BYTES = 1L << 30;
    private static final int MAX_DEPTH = 64;

    @Override
    public String name() {
        return "torch";
    }

    @Override
    public boolean accepts(Path file) {
        return isTorchName(file);
    }

    static boolean isTorchName(Path file) {
        return ModelFiles.nameEndsWith(file, ".bin") || ModelFiles.nameEndsWith(file, ".pt") || ModelFiles.nameEndsWith(file, ".pth")
                || ModelFiles.nameEndsWith(file, ".pt2") || ModelFiles.nameEndsWith(file, ".ckpt");
    }

    @Override
    public Model read(Path file) {
        return ModelFiles.inArena(arena -> {
            Map<String, String> metadata = new LinkedHashMap<>();
            Contents c = contents(file.toString(), ModelFiles.map(file, arena), arena, metadata);
            metadata.put("format", "torch");
            List<Tensor> weights = c.tensors();
            if (!c.buffers().isEmpty()) {
                weights = weights.stream().filter(t -> !c.buffers().contains(t.name())).toList();
                metadata.put("torch.buffers", c.buffers().size() + " registered buffer(s) by the program's signature, tensors but no layers: "
                        + String.join(", ", c.buffers()));
            }
            return new Model(file.toString(), "torch", c.tensors(), TensorLayers.of(weights, metadata), metadata, arena);
        });
    }

    /** The tensors of one torch.save file (a Hugging Face shard, say), mapped in {@code arena}. */
    static List<Tensor> tensors(Path file, Arena arena) {
        return read(file.toString(), ModelFiles.map(file, arena), arena, new HashMap<>());
    }

    /** An archive's tensors and, of a torch.export archive, the names of its registered buffers ({@link Pt2Archive#buffers}). */
    record Contents(List<Tensor> tensors, Set<String> buffers) {}

    static List<Tensor> read(String source, MemorySegment bytes, Arena arena, Map<String, String> metadata) {
        return contents(source, bytes, arena, metadata).tensors();
    }

    static Contents contents(String source, MemorySegment bytes, Arena arena, Map<String, String> metadata) {
        if (bytes.byteSize() >= 2 && (bytes.get(ValueLayout.JAVA_BYTE, 0) & 0xff) == 0x80) {
            throw ModelFormatException.in(source, "legacy (pre-1.6, not zip) torch.save format, not read; re-save it with a current torch.save "
                    + "or as safetensors");
        }
        if (bytes.byteSize() < 4 || bytes.get(LittleEndian.I32, 0) != 0x04034b50) {
            throw ModelFormatException.in(source, "not a torch.save file (no zip header)");
        }
        StoredZip.Listing zip = StoredZip.entries(source, bytes);
        String top = null;
        for (String name : zip.names()) {
            int slash = name.indexOf('/');
            String first = slash < 0 ? "" : name.substring(0, slash);
            if (top == null) top = first;
            if (first.isEmpty() || !first.equals(top)) {
                throw ModelFormatException.in(source, "zip entry '" + name + "' is outside the archive's one top folder" + (top == null || top.isEmpty() ? "" : " '" + top + "'"));
            }
        }
        boolean script = zip.has(top + "/constants.pkl");
        MemorySegment pickle = zip.stored(source, top + "/data.pkl");
        if (pickle == null && Pt2Archive.is(zip, top)) {
            return new Contents(Pt2Archive.tensors(source, top, zip, arena, metadata), Pt2Archive.buffers(source, top, zip));
        }
        if (pickle == null) throw ModelFormatException.in(source, "zip has no " + top + "/data.pkl" + (script ? " (a TorchScript archive without its module)" : ""));
        if (pickle.byteSize() > MAX_PICKLE_BYTES) throw ModelFormatException.in(source, "data.pkl of " + pickle.byteSize() + " bytes is over the 1 GiB limit");
        MemorySegment order = zip.stored(source, top + "/byteorder");
        if (order != null) {
            String o = new String(order.toArray(ValueLayout.JAVA_BYTE), StandardCharsets.US_ASCII).strip();
            if (!o.equals("little")) throw ModelFormatException.in(source, "byteorder '" + o + "': only little-endian archives are read");
        }
        MemorySegment version = zip.stored(source, top + "/version");
        if (version != null && version.byteSize() < 64) {
            metadata.put("torch.version", new String(version.toArray(ValueLayout.JAVA_BYTE), StandardCharsets.US_ASCII).strip());
        }
        metadata.put("torch.archive", top);
        String prefix = top + "/data/";
        Map<String, Long> storageBytes = new HashMap<>();
        for (String name : zip.names()) {
            if (name.startsWith(prefix)) storageBytes.put(name.substring(prefix.length()), zip.stored(source, name).byteSize());
        }
        Object root = script ? TorchPickle.loadScript(source, pickle, storageBytes) : TorchPickle.load(source, pickle, storageBytes);
        if (script) {
            metadata.put("torch.script", "TorchScript (torch.jit.save): the module tree's parameters and buffers by their state-dict names; "
                    + "constants.pkl and the code are not read");
        }
        Map<String, TorchPickle.TensorRef> refs = new LinkedHashMap<>();
        int[] others = new int[1];
        Visits visits = new Visits(source, pickle.byteSize());
        flatten(source, "", modelPart(root, metadata, visits), refs, script ? new IdentityHashMap<>() : null, others, 0, visits);
        if (refs.isEmpty()) throw ModelFormatException.in(source, "holds no tensors");
        String strip = commonPrefix(refs.keySet(), "state_dict.");
        if (others[0] > 0) metadata.put("torch.nonTensorValues", Integer.toString(others[0]));
        List<Tensor> tensors = new ArrayList<>();
        for (Map.Entry<String, TorchPickle.TensorRef> e : refs.entrySet()) {
            String name = e.getKey().substring(strip.length());
            if (name.isEmpty()) name = top; // torch.save(tensor): the one tensor takes the archive's name (the file's stem)
            tensors.add(tensor(source, name, e.getValue(), zip.stored(source, prefix + e.getValue().storage().key()), arena));
        }
        return new Contents(tensors, Set.of());
    }

    /** The entries of a training checkpoint that hold the model's own weights, most common first. */
    private static final List<String> MODEL_ENTRIES = List.of("state_dict", "model_state_dict", "model", "module", "net", "network");

    /**
     * The part of a training checkpoint that is the model: a top-level dict that holds, beside other
     * entries with tensors (an optimizer's moments, an EMA copy, a scheduler), one of
     * {@link #MODEL_ENTRIES} with tensors ({@code torch.save({'model_state_dict': ..., 'optimizer_state_dict':
     * ...})}, as PyTorch's tutorial saves, Lightning's {@code state_dict} beside {@code optimizer_states}) is
     * read as that entry, named by its keys (no prefix), and the rest is named in the note
     * {@code torch.skipped}. Anything else is read whole.
     */
    private static Object modelPart(Object root, Map<String, String> metadata, Visits visits) {
        if (!(root instanceof Map<?, ?> top)) return root;
        for (String name : MODEL_ENTRIES) {
            Object model = top.get(name);
            if (!(model instanceof Map<?, ?>) || tensorCount(model, 0, visits) == 0) continue;
            List<String> rest = new ArrayList<>();
            for (Map.Entry<?, ?> e : top.entrySet()) {
                int n = e.getKey().equals(name) ? 0 : tensorCount(e.getValue(), 0, visits);
                if (n > 0) rest.add(key(e.getKey()) + " (" + n + (n == 1 ? " tensor)" : " tensors)"));
            }
            if (rest.isEmpty()) return root;
            metadata.put("torch.skipped", "a training checkpoint: the model is its '" + name + "' entry; left out of the layers: "
                    + String.join(", ", rest) + " (optimizer moments, EMA copies and the like)");
            return model;
        }
        return root;
    }

    /** Tensors under {@code o}, as {@link #flatten} would name them (depth- and visit-bounded the same way). */
    private static int tensorCount(Object o, int depth, Visits visits) {
        visits.step();
        if (depth > MAX_DEPTH) return 0;
        if (o instanceof TorchPickle.TensorRef) return 1;
        int n = 0;
        if (o instanceof Map<?, ?> m) for (Object v : m.values()) n += tensorCount(v, depth + 1, visits);
        if (o instanceof List<?> l) for (Object v : l) n += tensorCount(v, depth + 1, visits);
        if (o instanceof TorchPickle.Tuple t) for (Object v : t.items()) n += tensorCount(v, depth + 1, visits);
        if (o instanceof TorchPickle.ScriptObject so) n += tensorCount(so.attributes(), depth + 1, visits);
        return n;
    }

    /**
     * A bound on the walks over the unpickled objects. The memo lets a pickle refer to one container
     * many times, so a few hundred bytes can describe a tree of 2^60 paths (a list of two references
     * to a list of two references...); a pickle without shared containers has no more nodes than
     * opcodes, so walks of more steps than a few times its bytes are refused, not taken.
     */
    private static final class Visits {
        private final String source;
        private long left;

        Visits(String source, long pickleBytes) {
            this.source = source;
            this.left = 4 * pickleBytes + 1024;
        }

        void step() {
            if (--left < 0) throw ModelFormatException.in(source, "data.pkl refers to its containers over and over (more paths than its bytes can "
                    + "hold without sharing); not walked");
        }
    }

    private static String commonPrefix(Set<String> names, String candidate) {
        for (String n : names) if (!n.startsWith(candidate)) return "";
        return candidate;
    }

    /**
     * Names each tensor under {@code o} by its path of keys. {@code seen}, for a TorchScript module
     * tree, keeps a tensor reached twice under its first name only: a module's derived lists (an
     * LSTM's {@code _flat_weights}) repeat its parameters.
     */
    private static void flatten(String source, String prefix, Object o, Map<String, TorchPickle.TensorRef> out,
                                Map<TorchPickle.TensorRef, String> seen, int[] others, int depth, Visits visits) {
        visits.step();
        if (depth > MAX_DEPTH) throw ModelFormatException.in(source, "data.pkl nests containers deeper than " + MAX_DEPTH);
        if (o instanceof TorchPickle.TensorRef t) {
            if (seen != null && seen.putIfAbsent(t, prefix) != null) return;
            if (out.put(prefix, t) != null) throw ModelFormatException.in(source, "two tensors named '" + prefix + "'");
        } else if (o instanceof TorchPickle.ScriptObject s) {
            flatten(source, prefix, s.attributes(), out, seen, others, depth + 1, visits);
        } else if (o instanceof Map<?, ?> m) {
            for (Map.Entry<?, ?> e : m.entrySet()) flatten(source, join(prefix, key(e.getKey())), e.getValue(), out, seen, others, depth + 1, visits);
        } else if (o instanceof List<?> l) {
            for (int i = 0; i < l.size(); i++) flatten(source, join(prefix, Integer.toString(i)), l.get(i), out, seen, others, depth + 1, visits);
        } else if (o instanceof TorchPickle.Tuple t) {
            for (int i = 0; i < t.items().size(); i++) flatten(source, join(prefix, Integer.toString(i)), t.items().get(i), out, seen, others, depth + 1, visits);
        } else {
            others[0]++;
        }
    }

    private static String key(Object k) {
        if (k instanceof TorchPickle.Tuple t) return t.items().toString();
        return String.valueOf(k);
    }

    private static String join(String prefix, String key) {
        return prefix.isEmpty() ? key : prefix + "." + key;
    }

    /** {@code ref} over its storage's bytes as a tensor: a slice of the mapping where contiguous, else a copy in C order. */
    static Tensor tensor(String source, String name, TorchPickle.TensorRef ref, MemorySegment storage, Arena arena) {
        long[] size = ref.size();
        long[] stride = ref.stride();
        int element = ref.storage().dtype().sizeBytes();
        long count = 1;
        for (long d : size) count = Math.multiplyExact(count, d);
        boolean contiguous = true;
        long expected = 1;
        for (int i = size.length - 1; i >= 0; i--) {
            if (size[i] != 1 && stride[i] != expected) contiguous = false;
            expected *= size[i];
        }
        if (count == 0) return new Tensor(name, ref.storage().dtype(), size, MemorySegment.ofArray(new byte[0]));
        if (contiguous) return new Tensor(name, ref.storage().dtype(), size, storage.asSlice(ref.offset() * element, count * element));
        if (count > ref.storage().numel()) {
            throw ModelFormatException.in(source, "tensor '" + name + "' is a view of " + count + " elements over a storage of "
                    + ref.storage().numel() + " (a broadcast view; not expanded)");
        }
        MemorySegment copy = arena.allocate(count * element, 8);
        long[] index = new long[size.length];
        long from = ref.offset();
        for (long i = 0; i < count; i++) {
            MemorySegment.copy(storage, from * element, copy, i * element, element);
            for (int d = size.length - 1; d >= 0; d--) {
                index[d]++;
                from += stride[d];
                if (index[d] < size[d]) break;
                from -= index[d] * stride[d];
                index[d] = 0;
            }
        }
        return new Tensor(name, ref.storage().dtype(), size, copy);
    }
}
