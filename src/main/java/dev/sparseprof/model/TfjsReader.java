package dev.sparseprof.model;

import dev.sparseprof.util.DType;
import dev.sparseprof.util.Json;
import dev.sparseprof.util.SparseprofException;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * TensorFlow.js weights: a {@code *weights_manifest.json} (a JSON array of groups) or a
 * {@code model.json} (whose {@code weightsManifest} is that array), or any other {@code .json}
 * whose head says it is one of the two ({@link #looksLikeTfjs}: model zoos name their graph models
 * after the model, {@code age.json}, {@code movenet-lightning.json}). Each group lists shard
 * {@code paths}, read as one concatenated buffer, and its {@code weights} in buffer order
 * ({@code name}, {@code shape}, {@code dtype}, optional {@code quantization}). Shard paths must
 * stay inside the manifest's folder.
 *
 * <p>Quantized weights are dequantized by {@link TfjsQuantization}; layers follow {@link TfjsLayers}.
 */
final class TfjsReader implements ModelReader {
    private static final long MAX_MANIFEST_BYTES = 100_000_000L;

    @Override
    public String name() {
        return "tfjs";
    }

    /** Bytes of a {@code .json} file's head that {@link #looksLikeTfjs} reads. */
    static final int SNIFF_BYTES = 64 * 1024;

    @Override
    public boolean accepts(Path file) {
        String n = file.getFileName().toString().toLowerCase(Locale.ROOT);
        if (n.endsWith("weights_manifest.json") || n.equals("model.json")) return true;
        return n.endsWith(".json") && !n.endsWith(".index.json") && looksLikeTfjs(file);
    }

    /**
     * Whether the head of a JSON file ({@link #SNIFF_BYTES}) is a TF.js model or weights manifest:
     * a {@code model.json}'s top-level keys ({@code "modelTopology"}, which the converter writes
     * before the graph, or {@code "weightsManifest"}), or a bare manifest, an array whose first group
     * has {@code "paths"} and {@code "weights"}. An unreadable file is not one (the caller then says
     * the format is unknown).
     */
    static boolean looksLikeTfjs(Path file) {
        String text = head(file);
        if (text.startsWith("{")) return text.contains("\"modelTopology\"") || text.contains("\"weightsManifest\"");
        return text.startsWith("[") && text.contains("\"paths\"") && text.contains("\"weights\"");
    }

    /**
     * Whether a TF.js manifest file carries a graph (a {@code model.json}: its {@code modelTopology}
     * key, which the converter writes first), which only a TF.js folder can hold again.
     */
    static boolean hasGraph(Path file) {
        return file.getFileName().toString().equalsIgnoreCase("model.json") || head(file).contains("\"modelTopology\"");
    }

    /** The file's first {@link #SNIFF_BYTES} as text, leading white space stripped ("" where it cannot be read). */
    private static String head(Path file) {
        byte[] head = new byte[SNIFF_BYTES];
        int n = 0;
        try (InputStream in = Files.newInputStream(file)) {
            for (int r; n < head.length && (r = in.read(head, n, head.length - n)) > 0; ) n += r;
        } catch (IOException | RuntimeException e) {
            return "";
        }
        return new String(head, 0, n, StandardCharsets.UTF_8).stripLeading();
    }

    @Override
    public Model read(Path file) {
        return read(file, ReadOptions.NONE);
    }

    /**
     * {@code options.inputSize()} (HxW) gives each conv its output pixels through the Keras topology
     * of a {@code model.json} ({@link TfjsShapes}) or a graph model's ops ({@link TfjsGraphShapes});
     * a bare weights manifest has no graph, so asking for it there is an error rather than a guess.
     */
    @Override
    public Model read(Path file, ReadOptions options) {
        String source = file.toString();
        long size = ModelFiles.size(file);
        if (size > MAX_MANIFEST_BYTES) throw ModelFormatException.in(source, "manifest of " + size + " bytes is over the 100 MB limit");
        return ModelFiles.inArena(arena -> {
            MemorySegment bytes = ModelFiles.map(file, arena);
            Object json;
            try {
                json = Json.parse(new String(bytes.toArray(ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8));
            } catch (SparseprofException e) {
                throw ModelFormatException.in(source, e.getMessage());
            }
            Path folder = file.toAbsolutePath().getParent();
            List<Tensor> tensors = new ArrayList<>();
            Map<String, DType> stored = new HashMap<>();
            for (Object group : groups(source, json)) readGroup(source, folder, group, arena, tensors, stored);
            Map<String, long[]> sizes = Map.of();
            boolean graphModel = TfjsGraph.isGraphModel(json);
            Map<String, TfjsGraph.Feed> uses = TfjsGraph.uses(json);
            Map<String, Long> graphPixels = Map.of();
            if (graphModel) {
                // the input size the graph states, or --input-size where it leaves it open
                Map<String, Tensor> byName = new HashMap<>();
                for (Tensor t : tensors) byName.putIfAbsent(t.name(), t);
                long[] given = options.inputSize();
                graphPixels = TfjsGraphShapes.convolutionPixels(json, uses, byName, given == null ? 0 : given[0], given == null ? 0 : given[1]);
            } else {
                // the size the topology states (the model runs at it only), else --input-size
                long[] stated = TfjsShapes.statedInputSize(json);
                if (stated != null || options.inputSize() != null) {
                    if (!TfjsShapes.hasTopology(json)) {
                        throw ModelFormatException.in(source, "--input-size needs the model's graph, and a bare weights manifest has none "
                                + "(the convolutions' strides are unknown); give the model.json that holds its modelTopology");
                    }
                    sizes = TfjsShapes.outputSizes(json, stated != null ? stated : options.inputSize());
                }
            }
            List<GemmLayer> layers = new ArrayList<>();
            for (Tensor t : tensors) {
                int slash = t.name().lastIndexOf('/');
                long[] hw = slash > 0 ? sizes.get(t.name().substring(0, slash)) : null;
                DType storedType = stored.getOrDefault(t.name(), t.dtype());
                TfjsGraph.Feed feed = uses.get(t.name());
                GemmLayer l = !graphModel ? TfjsLayers.of(t, storedType, hw == null ? 1 : hw[0] * hw[1])
                        : feed == null ? null : TfjsLayers.of(t, storedType, graphPixels.getOrDefault(t.name(), 1L), feed.use(), feed.layerName(t.name()));
                if (l != null) layers.add(l);
            }
            return new Model(source, "tfjs", tensors, layers, Map.of("format", "tfjs"), arena);
        });
    }

    static List<?> groups(String source, Object json) {
        Object manifest = json;
        if (json instanceof Map<?, ?> m) {
            manifest = m.get("weightsManifest");
            if (manifest == null) throw ModelFormatException.in(source, "model.json has no weightsManifest");
        }
        if (!(manifest instanceof List<?> list)) throw ModelFormatException.in(source, "weights manifest is not an array of groups");
        return list;
    }

    private static void readGroup(String source, Path folder, Object group, Arena arena, List<Tensor> into, Map<String, DType> stored) {
        if (!(group instanceof Map<?, ?> g)) throw ModelFormatException.in(source, "manifest group is not an object");
        if (!(g.get("paths") instanceof List<?> paths) || paths.isEmpty()) throw ModelFormatException.in(source, "group without shard paths");
        if (!(g.get("weights") instanceof List<?> weights)) throw ModelFormatException.in(source, "group without weights");
        List<MemorySegment> shards = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (Object p : paths) {
            if (!(p instanceof String s)) throw ModelFormatException.in(source, "shard path " + p + " is not a string");
            shards.add(ModelFiles.map(ModelFiles.confined(source, folder, s), arena));
            names.add(s);
        }
        ShardBuffer buffer = new ShardBuffer(shards, names);
        long offset = 0;
        for (Object w : weights) {
            if (!(w instanceof Map<?, ?> weight)) throw ModelFormatException.in(source, "weight entry is not an object");
            Tensor t = weight(source, weight, buffer, offset, arena);
            offset += storedBytes(source, weight, t.elementCount());
            into.add(t);
            if (weight.get("quantization") instanceof Map<?, ?> q && q.get("dtype") instanceof String qd) {
                DType d = switch (qd) {
                    case "uint8" -> DType.U8;
                    case "uint16" -> DType.U16;
                    case "float16" -> DType.F16;
                    default -> null;
                };
                if (d != null) stored.put(t.name(), d);
            }
        }
    }

    private static Tensor weight(String source, Map<?, ?> w, ShardBuffer buffer, long offset, Arena arena) {
        if (!(w.get("name") instanceof String name)) throw ModelFormatException.in(source, "weight without a name");
        String where = "weight '" + name + "'";
        long[] shape = shape(source, where, w.get("shape"));
        long count = 1;
        for (long d : shape) {
            if (d > 0 && count > Long.MAX_VALUE / 8 / d) throw ModelFormatException.in(source, where + " is impossibly large");
            count *= d;
        }
        DType dtype = dtype(source, where, w.get("dtype"));
        long stored = storedBytes(source, w, count);
        if (offset > buffer.size() || stored > buffer.size() - offset) {
            throw ModelFormatException.in(source, where + " needs bytes " + offset + ".." + (offset + stored) + " of its group's shards, and "
                    + buffer.describe() + " (a shard is truncated, or the manifest lists more than it holds)");
        }
        MemorySegment raw = buffer.slice(offset, stored, arena);
        Object q = w.get("quantization");
        if (q == null) return new Tensor(name, dtype, shape, raw);
        if (!(q instanceof Map<?, ?> quant)) throw ModelFormatException.in(source, where + " quantization is not an object");
        return new Tensor(name, dtype, shape, TfjsQuantization.dequantize(source, where, quant, raw, count, dtype, arena));
    }

    static long storedBytes(String source, Map<?, ?> w, long count) {
        Object q = w.get("quantization");
        String stored = q instanceof Map<?, ?> m && m.get("dtype") instanceof String s ? s : String.valueOf(w.get("dtype"));
        int bytes = switch (stored) {
            case "uint8", "bool", "int8" -> 1;
            case "uint16", "float16", "int16" -> 2;
            case "float32", "int32" -> 4;
            default -> throw ModelFormatException.in(source, "weight '" + w.get("name") + "' has unsupported stored dtype '" + stored + "'");
        };
        return count * bytes;
    }

    private static DType dtype(String source, String where, Object d) {
        if (!(d instanceof String s)) throw ModelFormatException.in(source, where + " has no dtype");
        return switch (s) {
            case "float32" -> DType.F32;
            case "int32" -> DType.I32;
            case "bool" -> DType.BOOL;
            default -> throw ModelFormatException.in(source, where + " has unsupported dtype '" + s + "' (float32, int32, bool)");
        };
    }

    private static long[] shape(String source, String where, Object s) {
        if (!(s instanceof List<?> list) || list.size() > 16) throw ModelFormatException.in(source, where + " has no valid shape");
        long[] shape = new long[list.size()];
        for (int i = 0; i < shape.length; i++) {
            if (!(list.get(i) instanceof Long v) || v < 0) throw ModelFormatException.in(source, where + " has a bad dimension " + list.get(i));
            shape[i] = v;
        }
        return shape;
    }


    /** A group's shards (and their paths, for messages) as one buffer: slices within one shard are views, slices across shards copies. */
    private record ShardBuffer(List<MemorySegment> shards, List<String> paths) {
        /** {@code "shard m.bin holds 16 bytes"} or {@code "shards a.bin (8 bytes), b.bin (8 bytes) hold 16"}. */
        String describe() {
            if (shards.size() == 1) return "shard " + paths.get(0) + " holds " + size() + " bytes";
            StringBuilder b = new StringBuilder("shards ");
            for (int i = 0; i < shards.size(); i++) b.append(i == 0 ? "" : ", ").append(paths.get(i)).append(" (").append(shards.get(i).byteSize()).append(" bytes)");
            return b.append(" hold ").append(size()).toString();
        }

        long size() {
            long n = 0;
            for (MemorySegment s : shards) n += s.byteSize();
            return n;
        }

        MemorySegment slice(long offset, long length, Arena arena) {
            long start = 0;
            for (MemorySegment s : shards) {
                if (offset >= start && offset + length <= start + s.byteSize()) return s.asSlice(offset - start, length);
                start += s.byteSize();
            }
            MemorySegment copy = arena.allocate(Math.max(1, length), 8).asSlice(0, length);
            long done = 0;
            start = 0;
            for (MemorySegment s : shards) {
                long from = Math.max(offset + done, start);
                long end = Math.min(offset + length, start + s.byteSize());
                if (from < end) {
                    MemorySegment.copy(s, from - start, copy, from - offset, end - from);
                    done = end - offset;
                }
                start += s.byteSize();
            }
            return copy;
        }
    }
}
