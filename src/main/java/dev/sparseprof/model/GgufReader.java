package dev.sparseprof.model;

import dev.sparseprof.util.DType;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * GGUF files (llama.cpp), versions 2 and 3: magic {@code GGUF}, u32 version, u64 tensor count, u64
 * metadata count; the metadata as key (u64-length string), u32 value type, value (u8 i8 u16 i16 u32
 * i32 f32 bool string array u64 i64 f64; an array is a u32 element type, a u64 count and the
 * elements); the tensor infos (name, u32 rank, u64 dims with the fastest-varying first, u32 ggml
 * type, u64 offset into the data); then the data, which starts at the next multiple of
 * {@code general.alignment} (default 32), every offset a multiple of it too.
 *
 * <p>Nothing is sized from a count before the count is checked against the bytes left (a metadata
 * entry takes at least 13 bytes, a tensor info 24, an array element its type's size), ranks are at
 * most 4, every tensor's extent (from its type's block size) must lie inside the data, and no two
 * tensors may overlap. The whole file is mapped, nothing is copied.
 *
 * <p>Values: F32, F16 and BF16 tensors are read in place (C-order shape = dims reversed); the
 * block types of {@link GgufBlockMatrix} (Q8_0, Q4_0/1, Q5_0/1, Q2_K to Q6_K, MXFP4) are dequantized row by row and
 * appear among the tensors as their raw U8 bytes; 3-D weights (stacked experts,
 * {@code ffn_*_exps}) are one LINEAR layer of all experts' rows; I8/I16/I32/I64/F64 tensors are kept but are not
 * layers; every other quantization type (IQ*, TQ*, Q8_1, Q8_K) is listed in the metadata
 * ({@code gguf.skipped}) and left out of the layers, never misread. Layers follow
 * {@link TensorLayers}, {@code token_embd} being the embedding gather; the metadata has every
 * scalar key (arrays as {@code [N x type]}) and the architecture facts as {@code config.*}
 * ({@code ARCH.embedding_length}, {@code block_count}, {@code attention.head_count[_kv]},
 * {@code feed_forward_length}, {@code expert_count}), from which {@link LayerLabels} labels layers.
 */
final class GgufReader implements ModelReader {
    private static final int MAGIC = 0x46554747; // "GGUF" little-endian
    private static final int MAX_DIMS = 4;
    private static final int DEFAULT_ALIGNMENT = 32;
    private static final long MAX_STRING_BYTES = 1L << 30;
    private static final String TOKEN_EMBEDDING = "token_embd.weight";
    private static final String OUTPUT = "output.weight";
    /**
     * llama.cpp architectures without an output projection (embedding encoders): elsewhere a missing
     * {@code output.weight} means llama.cpp multiplies by {@code token_embd} (llama-model.cpp loads the
     * output as "not required" and falls back to the token embedding, duplicated).
     */
    private static final Set<String> ENCODERS = Set.of("bert", "nomic-bert", "nomic-bert-moe", "jina-bert-v2",
            "jina-bert-v3", "neo-bert", "modern-bert", "t5encoder", "clip");

    @Override
    public String name() {
        return "gguf";
    }

    @Override
    public boolean accepts(Path file) {
        return ModelFiles.nameEndsWith(file, ".gguf");
    }

    @Override
    public Model read(Path file) {
        return ModelFiles.inArena(arena -> {
            Shard first = shard(file.toString(), ModelFiles.map(file, arena), arena);
            List<Shard> shards = new ArrayList<>(List.of(first));
            int count = first.splitCount();
            if (count > 1) shards = siblings(file, first, count, arena);
            return model(file.toString(), shards, arena);
        });
    }

    /** One file's model (tests read bytes that are no file). */
    static Model read(String source, MemorySegment bytes, Arena arena) {
        return model(source, List.of(shard(source, bytes, arena)), arena);
    }

    /** One tensor info, checked against the file. */
    private record Info(String name, long[] dims, GgufTypes type, long offset, long bytes) {}

    /** One file's metadata (its own keys; {@code scalars} the scalar values), tensors, layers and left-out tensors. */
    private record Shard(Map<String, String> metadata, Map<String, Object> scalars, List<Tensor> tensors, List<GemmLayer> layers,
                         List<String> skipped) {
        /** {@code split.count}: how many files llama.cpp's gguf-split cut the model into (1 when unsplit). */
        int splitCount() {
            return scalars.get(SPLIT_COUNT) instanceof Long n && n > 1 && n <= MAX_SPLITS ? (int) (long) n : 1;
        }
    }

    /** llama.cpp's split keys ({@code gguf-split}, {@code convert_hf_to_gguf --split-max-size}). */
    private static final String SPLIT_COUNT = "split.count", SPLIT_NO = "split.no";
    private static final int MAX_SPLITS = 9999;
    /** A split file's name: {@code STEM-00001-of-00003.gguf} (llama.cpp's {@code LLAMA_SPLIT_PATH} format). */
    private static final Pattern SPLIT_NAME = Pattern.compile("(.*)-(\\d{5})-of-(\\d{5})\\.gguf");

    /**
     * Every file of a split model, in order, {@code file} (any one of them) among them: named
     * {@code STEM-0000i-of-0000N.gguf} in its folder, each saying it is file i of N.
     */
    private static List<Shard> siblings(Path file, Shard given, int count, Arena arena) {
        Matcher m = SPLIT_NAME.matcher(file.getFileName().toString());
        if (!m.matches() || Integer.parseInt(m.group(3)) != count) {
            throw ModelFormatException.in(file, "is file " + given.scalars().get(SPLIT_NO) + " of a model split into " + count
                    + " files, but its name is not STEM-0000i-of-" + String.format(Locale.ROOT, "%05d", count) + ".gguf");
        }
        List<Shard> shards = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            String name = String.format(Locale.ROOT, "%s-%05d-of-%05d.gguf", m.group(1), i, count);
            Path part = ModelFiles.confined(file, file.toAbsolutePath().getParent(), name);
            Shard s = i == Integer.parseInt(m.group(2)) ? given : shard(part.toString(), ModelFiles.map(part, arena), arena);
            if (!(s.scalars().get(SPLIT_NO) instanceof Long no) || no != i - 1 || s.splitCount() != count) {
                throw ModelFormatException.in(part, "does not say it is file " + i + " of " + count + " (split.no " + s.scalars().get(SPLIT_NO)
                        + ", split.count " + s.scalars().get(SPLIT_COUNT) + ")");
            }
            shards.add(s);
        }
        return shards;
    }

    /**
     * The model of one file or of a split model's files: the first file's metadata and architecture
     * facts, every file's tensors and layers; then the tied output ({@link TiedHeads}) and routed
     * experts ({@link RoutedExperts}) over all of them.
     */
    private static Model model(String source, List<Shard> shards, Arena arena) {
        Shard first = shards.get(0);
        Map<String, String> metadata = new LinkedHashMap<>(first.metadata());
        List<Tensor> tensors = new ArrayList<>();
        List<GemmLayer> layers = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (Shard s : shards) {
            for (Tensor t : s.tensors()) {
                if (!names.add(t.name())) throw ModelFormatException.in(source, "tensor '" + t.name() + "' is in two of its split files");
            }
            tensors.addAll(s.tensors());
            layers.addAll(s.layers());
            skipped.addAll(s.skipped());
        }
        if (shards.size() > 1) metadata.put("gguf.split", shards.size() + " files (llama.cpp's gguf-split), read together");
        GemmLayer embedding = layers.stream().filter(l -> l.name().equals(TOKEN_EMBEDDING)).findFirst().orElse(null);
        boolean outputStored = names.contains(OUTPUT);
        if (embedding != null && !outputStored && !ENCODERS.contains(String.valueOf(first.scalars().get("general.architecture")))) {
            TiedHeads.add(TiedHeads.tied(OUTPUT, embedding), layers, metadata);
        }
        if (!skipped.isEmpty()) {
            metadata.put("gguf.skipped", skipped.size() + (skipped.size() == 1 ? " tensor" : " tensors")
                    + " of a quantization type not decoded, left out of the layers: " + summary(skipped));
        }
        return new Model(source, "gguf", tensors, RoutedExperts.apply(layers, metadata), metadata, arena);
    }

    private static Shard shard(String source, MemorySegment bytes, Arena arena) {
        Cursor in = new Cursor(source, bytes);
        if (bytes.byteSize() < 24) throw ModelFormatException.in(source, "truncated: " + bytes.byteSize() + " bytes, no GGUF header");
        if (in.u32() != MAGIC) throw ModelFormatException.in(source, "not a GGUF file (no GGUF magic)");
        long version = in.u32() & 0xffffffffL;
        if (version != 2 && version != 3) throw ModelFormatException.in(source, "GGUF version " + version + " (versions 2 and 3 are read)");
        long tensorCount = in.u64();
        long kvCount = in.u64();
        in.checkCount(kvCount, 13, "metadata entries");
        Map<String, String> metadata = new LinkedHashMap<>();
        Map<String, Object> scalars = new LinkedHashMap<>();
        for (long i = 0; i < kvCount; i++) {
            String key = in.string("metadata key");
            int type = in.u32();
            Object value = in.value(type, key, metadata, 0);
            if (value != null) scalars.put(key, value);
        }
        long alignment = DEFAULT_ALIGNMENT;
        if (scalars.containsKey("general.alignment")) {
            if (!(scalars.get("general.alignment") instanceof Long a) || a <= 0 || Long.bitCount(a) != 1 || a > (1 << 20)) {
                throw ModelFormatException.in(source, "general.alignment " + scalars.get("general.alignment") + " is not a power of two");
            }
            alignment = a;
        }
        in.checkCount(tensorCount, 24, "tensor infos");
        List<Info> infos = new ArrayList<>();
        for (long i = 0; i < tensorCount; i++) infos.add(in.info(alignment));
        long dataStart = (in.pos + alignment - 1) / alignment * alignment;
        if (dataStart > bytes.byteSize()) throw ModelFormatException.in(source, "truncated: the data area starts past the end of the file");
        MemorySegment data = bytes.asSlice(dataStart);
        checkExtents(source, infos, data.byteSize());
        metadata.putAll(architecture(source, scalars));
        metadata.put("format", "gguf");
        metadata.put("gguf.version", Long.toString(version));
        List<Tensor> tensors = new ArrayList<>();
        List<GemmLayer> layers = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        for (Info info : infos) {
            MemorySegment slice = data.asSlice(info.offset, info.bytes);
            DType plain = plain(info.type);
            long[] shape = reversed(info.dims);
            if (plain != null) {
                Tensor t = new Tensor(info.name, plain, shape, slice);
                tensors.add(t);
                GemmLayer l = info.dims.length == 3 ? stacked(t, info) : TensorLayers.of(t);
                if (l != null && info.name.startsWith("token_embd")) {
                    l = new GemmLayer(l.name(), l.tensorName(), LayerKind.EMBEDDING_GATHER, l.rows(), l.cols(), 1, l.matrix());
                }
                if (l != null) layers.add(l);
                continue;
            }
            tensors.add(new Tensor(info.name, DType.U8, new long[] {info.bytes}, slice));
            if (info.bytes == 0) continue;
            if (!info.type.decoded()) {
                skipped.add(info.name + " " + info.type.name());
                continue;
            }
            long rows = info.bytes / ((info.dims[0] / info.type.blockElements) * info.type.blockBytes);
            if (info.dims.length < 2 || rows > Integer.MAX_VALUE || info.dims[0] > Integer.MAX_VALUE) {
                skipped.add(info.name + " " + info.type.name() + " (not a matrix)");
                continue;
            }
            GgufBlockMatrix view = new GgufBlockMatrix(slice, info.type, (int) rows, (int) info.dims[0]);
            LayerKind kind = info.name.startsWith("token_embd") || info.name.contains("embed") ? LayerKind.EMBEDDING_GATHER
                    : info.dims.length > 3 ? LayerKind.CONV : LayerKind.LINEAR;
            // priced as int8: llama.cpp multiplies its block types in int8 (q8_1 activations, dp4a / MMQ, vec_dot_*_q8),
            // reading the blocks as stored (GemmLayer.storedBitsPerWeight: 8.5 bits for Q8_0, 4.5 for Q4_0)
            layers.add(new GemmLayer(info.name, info.name, kind, (int) rows, (int) info.dims[0], 1, view, 1, false, DType.I8));
        }
        return new Shard(metadata, scalars, tensors, layers, skipped);
    }

    /**
     * A 3-D weight {@code [ne0, ne1, ne2]} (llama.cpp's stacked experts, {@code ffn_*_exps}: ne2
     * experts of {@code [ne1 out, ne0 in]}) as one LINEAR layer of all experts' rows.
     */
    private static GemmLayer stacked(Tensor t, Info info) {
        long rows = info.dims[1] * info.dims[2];
        if (t.dtype().isFloatingPoint() && rows > 0 && info.dims[0] > 0 && rows <= Integer.MAX_VALUE && info.dims[0] <= Integer.MAX_VALUE) {
            return new GemmLayer(t.name(), t.name(), LayerKind.LINEAR, (int) rows, (int) info.dims[0], 1,
                    TensorMatrix.rowMajor(t, (int) rows, (int) info.dims[0]));
        }
        return null;
    }

    private static String summary(List<String> skipped) {
        Map<String, Integer> byType = new LinkedHashMap<>();
        for (String s : skipped) byType.merge(s.substring(s.lastIndexOf(' ') + 1), 1, Integer::sum);
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<String, Integer> e : byType.entrySet()) sb.append(sb.isEmpty() ? "" : ", ").append(e.getValue()).append(" x ").append(e.getKey());
        return sb + " (first: " + skipped.get(0).substring(0, skipped.get(0).lastIndexOf(' ')) + ")";
    }

    private static DType plain(GgufTypes t) {
        return switch (t) {
            case F32 -> DType.F32;
            case F16 -> DType.F16;
            case BF16 -> DType.BF16;
            case F64 -> DType.F64;
            case I8 -> DType.I8;
            case I16 -> DType.I16;
            case I32 -> DType.I32;
            case I64 -> DType.I64;
            default -> null;
        };
    }

    private static long[] reversed(long[] dims) {
        long[] s = new long[dims.length];
        for (int i = 0; i < dims.length; i++) s[i] = dims[dims.length - 1 - i];
        return s;
    }

    private static void checkExtents(String source, List<Info> infos, long dataBytes) {
        List<Info> sorted = new ArrayList<>(infos);
        sorted.sort(Comparator.comparingLong(Info::offset));
        for (int i = 0; i < sorted.size(); i++) {
            Info t = sorted.get(i);
            if (t.offset > dataBytes || t.bytes > dataBytes - t.offset) {
                throw ModelFormatException.in(source, "tensor '" + t.name + "' " + t.type + Arrays.toString(t.dims) + " at offset " + t.offset
                        + " needs " + t.bytes + " bytes, the data area holds " + dataBytes);
            }
            if (i > 0 && t.offset < sorted.get(i - 1).offset + sorted.get(i - 1).bytes) {
                throw ModelFormatException.in(source, "tensors '" + sorted.get(i - 1).name + "' and '" + t.name + "' overlap in the data area");
            }
        }
    }

    /** {@code config.*} facts from the {@code general.architecture}'s keys. */
    private static Map<String, String> architecture(String source, Map<String, Object> kv) {
        Map<String, String> out = new LinkedHashMap<>();
        if (!(kv.get("general.architecture") instanceof String arch)) return out;
        long hidden = fact(kv, arch + ".embedding_length");
        if (hidden <= 0) return out;
        long heads = fact(kv, arch + ".attention.head_count");
        long kvHeads = fact(kv, arch + ".attention.head_count_kv");
        if (kvHeads <= 0) kvHeads = heads;
        long headDim = fact(kv, arch + ".attention.key_length");
        if (headDim <= 0 && heads > 0) headDim = hidden / heads;
        out.put("config.model_type", arch);
        out.put("config.hidden_size", Long.toString(hidden));
        out.put("config.num_hidden_layers", Long.toString(Math.max(0, fact(kv, arch + ".block_count"))));
        out.put("config.num_attention_heads", Long.toString(Math.max(0, heads)));
        out.put("config.num_key_value_heads", Long.toString(Math.max(0, kvHeads)));
        out.put("config.head_dim", Long.toString(Math.max(0, headDim)));
        out.put("config.intermediate_size", Long.toString(Math.max(0, fact(kv, arch + ".feed_forward_length"))));
        out.put("config.experts", Long.toString(Math.max(0, fact(kv, arch + ".expert_count"))));
        out.put("config.experts_per_token", Long.toString(Math.max(0, fact(kv, arch + ".expert_used_count"))));
        out.put("config.expert_intermediate_size", Long.toString(Math.max(0, fact(kv, arch + ".expert_feed_forward_length"))));
        for (Map.Entry<String, String> e : out.entrySet()) {
            if (!e.getKey().equals("config.model_type") && Long.parseLong(e.getValue()) > Integer.MAX_VALUE) {
                throw ModelFormatException.in(source, e.getKey().substring(7) + " " + e.getValue() + " is impossibly large");
            }
        }
        return out;
    }

    private static long fact(Map<String, Object> kv, String key) {
        return kv.get(key) instanceof Long v ? v : -1;
    }

    /** A bounds-checked little-endian reader over the mapped file. */
    private static final class Cursor {
        private final String source;
        private final MemorySegment bytes;
        private long pos;

        Cursor(String source, MemorySegment bytes) {
            this.source = source;
            this.bytes = bytes;
        }

        private void need(long n, String what) {
            if (n < 0 || n > bytes.byteSize() - pos) {
                throw ModelFormatException.in(source, "truncated at byte " + pos + ": " + what + " needs " + Long.toUnsignedString(n)
                        + " bytes, " + (bytes.byteSize() - pos) + " are left");
            }
        }

        /** A count of items of at least {@code minBytes} each must fit in the bytes left. */
        void checkCount(long count, long minBytes, String what) {
            long left = bytes.byteSize() - pos;
            if (count < 0 || count > left / minBytes) {
                throw ModelFormatException.in(source, "claims " + Long.toUnsignedString(count) + " " + what + ", more than the "
                        + left + " bytes left can hold");
            }
        }

        int u32() {
            need(4, "a u32");
            int v = bytes.get(LittleEndian.I32, pos);
            pos += 4;
            return v;
        }

        long u64() {
            need(8, "a u64");
            long v = bytes.get(LittleEndian.I64, pos);
            pos += 8;
            return v;
        }

        String string(String what) {
            long n = u64();
            if (n > MAX_STRING_BYTES) throw ModelFormatException.in(source, what + " claims " + Long.toUnsignedString(n) + " bytes");
            need(n, what);
            try {
                String s = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT).decode(bytes.asSlice(pos, n).asByteBuffer()).toString();
                pos += n;
                return s;
            } catch (CharacterCodingException e) {
                throw ModelFormatException.in(source, what + " at byte " + pos + " is not UTF-8");
            }
        }

        /** Reads one value; scalars come back (integers as Long) and go into {@code metadata}; arrays are skipped over. */
        Object value(int type, String key, Map<String, String> metadata, int depth) {
            switch (type) {
                case 0, 1, 7 -> {
                    need(1, key);
                    byte b = bytes.get(ValueLayout.JAVA_BYTE, pos++);
                    Object v = type == 0 ? (Object) (long) (b & 0xff) : type == 1 ? (Object) (long) b : (Object) (b != 0);
                    metadata.put(key, v.toString());
                    return v;
                }
                case 2, 3 -> {
                    need(2, key);
                    short s = bytes.get(LittleEndian.I16, pos);
                    pos += 2;
                    long v = type == 2 ? s & 0xffff : s;
                    metadata.put(key, Long.toString(v));
                    return v;
                }
                case 4, 5 -> {
                    int i = u32();
                    long v = type == 4 ? i & 0xffffffffL : i;
                    metadata.put(key, Long.toString(v));
                    return v;
                }
                case 6 -> {
                    need(4, key);
                    float f = bytes.get(LittleEndian.F32, pos);
                    pos += 4;
                    metadata.put(key, Float.toString(f));
                    return (double) f;
                }
                case 8 -> {
                    String s = string(key);
                    metadata.put(key, s);
                    return s;
                }
                case 9 -> {
                    if (depth >= 4) throw ModelFormatException.in(source, "metadata '" + key + "' nests arrays deeper than 4");
                    int elementType = u32();
                    long count = u64();
                    long min = elementSize(elementType, key);
                    checkCount(count, min, key + " array elements");
                    if (elementType == 8 || elementType == 9) {
                        for (long i = 0; i < count; i++) value(elementType, key, new HashMap<>(), depth + 1);
                    } else {
                        pos += count * min;
                    }
                    metadata.put(key, "[" + count + " x " + typeName(elementType) + "]");
                    return null;
                }
                case 10, 11 -> {
                    long v = u64();
                    metadata.put(key, type == 10 ? Long.toUnsignedString(v) : Long.toString(v));
                    return type == 10 && v < 0 ? null : v;
                }
                case 12 -> {
                    need(8, key);
                    double d = bytes.get(LittleEndian.F64, pos);
                    pos += 8;
                    metadata.put(key, Double.toString(d));
                    return d;
                }
                default -> throw ModelFormatException.in(source, "metadata '" + key + "' has unknown value type " + type);
            }
        }

        private long elementSize(int type, String key) {
            return switch (type) {
                case 0, 1, 7 -> 1;
                case 2, 3 -> 2;
                case 4, 5, 6 -> 4;
                case 10, 11, 12, 8 -> 8; // a string is at least its u64 length
                case 9 -> 12; // a nested array is at least its type and count
                default -> throw ModelFormatException.in(source, "metadata '" + key + "' is an array of unknown type " + type);
            };
        }

        private static String typeName(int type) {
            return List.of("u8", "i8", "u16", "i16", "u32", "i32", "f32", "bool", "string", "array", "u64", "i64", "f64").get(type);
        }

        Info info(long alignment) {
            String name = string("tensor name");
            int rank = u32();
            if (rank < 1 || rank > MAX_DIMS) throw ModelFormatException.in(source, "tensor '" + name + "' has rank " + (rank & 0xffffffffL) + " (1 to 4)");
            long[] dims = new long[rank];
            long elements = 1;
            for (int i = 0; i < rank; i++) {
                dims[i] = u64();
                if (dims[i] < 0 || (dims[i] > 0 && elements > Long.MAX_VALUE / 8 / dims[i])) {
                    throw ModelFormatException.in(source, "tensor '" + name + "' has impossible dims " + Long.toUnsignedString(dims[i]));
                }
                elements *= dims[i];
            }
            int typeId = u32();
            GgufTypes type = GgufTypes.of(typeId & 0xffffffffL);
            if (type == null) throw ModelFormatException.in(source, "tensor '" + name + "' has unknown ggml type " + (typeId & 0xffffffffL));
            long offset = u64();
            if (offset < 0 || offset % alignment != 0) {
                throw ModelFormatException.in(source, "tensor '" + name + "' offset " + Long.toUnsignedString(offset) + " is not a multiple of the alignment " + alignment);
            }
            if (dims[0] % type.blockElements != 0) {
                throw ModelFormatException.in(source, "tensor '" + name + "' " + type + " row of " + dims[0] + " elements is not whole "
                        + type.blockElements + "-element blocks");
            }
            long bytes = elements / type.blockElements * type.blockBytes;
            return new Info(name, dims, type, offset, bytes);
        }
    }
}
