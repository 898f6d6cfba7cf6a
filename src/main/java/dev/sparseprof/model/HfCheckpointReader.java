package dev.sparseprof.model;

import dev.sparseprof.util.Json;
import dev.sparseprof.util.SparseprofException;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Hugging Face checkpoints: a folder as {@code save_pretrained} writes it, or its
 * {@code *.index.json} ({@code {"metadata": {...}, "weight_map": {tensor: shard file}}}).
 *
 * <p>A folder is read through its index ({@code model.safetensors.index.json}, then
 * {@code pytorch_model.bin.index.json}, then a single other {@code *.index.json}), else through its
 * one weights file ({@code model.safetensors}, {@code pytorch_model.bin}, the only
 * {@code *.safetensors}, or Meta's own single {@code consolidated.00.pth}, whose facts come from
 * {@code params.json} where there is no config.json). Shards are safetensors files or torch.save zips; each shard named by the
 * index must resolve inside the index's folder ({@link ModelFiles#confined}: no absolute paths, no
 * {@code ..}, no symbolic link leaving the folder) and exist. Each shard is mapped once, read-only
 * (pages come in when a layer is scanned), and every tensor the index names must be in the shard it
 * names. Tensors come in natural name order ({@code layers.2} before {@code layers.10}); layer names
 * are the checkpoint's own parameter names, and layers follow {@link TensorLayers}.
 *
 * <p>{@code config.json} beside the weights, when present, is read by {@link HfConfig} into the
 * metadata ({@code config.*}), from which {@link LayerLabels} labels the layers. The model's format
 * is {@code hf}; metadata {@code hf.weights} says {@code safetensors} or {@code torch},
 * {@code hf.index} names the index (absent for a single file) and {@code hf.shards} counts the files.
 */
final class HfCheckpointReader implements ModelReader {
    static final long MAX_INDEX_BYTES = 100_000_000L;
    private static final List<String> INDEX_NAMES = List.of("model.safetensors.index.json", "pytorch_model.bin.index.json");
    private static final List<String> SINGLE_NAMES = List.of("model.safetensors", "pytorch_model.bin");

    @Override
    public String name() {
        return "hf";
    }

    @Override
    public boolean accepts(Path file) {
        return Files.isDirectory(file) || ModelFiles.nameEndsWith(file, ".index.json");
    }

    @Override
    public Model read(Path file) {
        if (!Files.isDirectory(file)) return readIndex(file, file.toString());
        Path index = indexIn(file);
        if (index != null) return readIndex(index, file.toString());
        Path single = singleIn(file);
        Map<String, String> metadata = new LinkedHashMap<>();
        metadata.putAll(HfConfig.metadata(file.resolve("config.json")));
        if (metadata.isEmpty()) metadata.putAll(HfConfig.metaParams(file.resolve("params.json")));
        return ModelFiles.inArena(arena -> {
            // the file's tensors and its own metadata only: the layers are built once, knowing config.json's model type
            boolean torch = TorchZipReader.isTorchName(single);
            MemorySegment bytes = ModelFiles.map(single, arena);
            List<Tensor> tensors = torch ? TorchZipReader.read(single.toString(), bytes, arena, metadata)
                    : SafetensorsReader.tensors(single.toString(), bytes, metadata);
            metadata.put("format", "hf");
            metadata.put("hf.weights", torch ? "torch" : "safetensors");
            metadata.put("hf.shards", "1");
            return new Model(file.toString(), "hf", tensors, TensorLayers.of(tensors, metadata), metadata, arena);
        });
    }

    private static Path indexIn(Path folder) {
        for (String n : INDEX_NAMES) if (Files.isRegularFile(folder.resolve(n))) return folder.resolve(n);
        List<Path> others = list(folder, "*.index.json");
        if (others.size() > 1) throw ModelFormatException.in(folder, "holds " + others.size() + " *.index.json files; name the one to read");
        return others.isEmpty() ? null : others.get(0);
    }

    private static Path singleIn(Path folder) {
        for (String n : SINGLE_NAMES) if (Files.isRegularFile(folder.resolve(n))) return folder.resolve(n);
        List<Path> files = list(folder, "*.safetensors");
        if (files.size() == 1) return files.get(0);
        List<Path> consolidated = list(folder, "consolidated*.pth");
        if (files.isEmpty() && consolidated.size() == 1) return consolidated.get(0); // Meta's own format, beside params.json
        if (files.isEmpty() && consolidated.size() > 1) {
            throw ModelFormatException.in(folder, "holds " + consolidated.size() + " consolidated.*.pth files: Meta's model-parallel shards each hold "
                    + "a slice of every weight; convert it to Hugging Face's format (transformers' convert_llama_weights_to_hf) first");
        }
        if (files.isEmpty() && Files.isRegularFile(folder.resolve("model_index.json"))) {
            throw ModelFormatException.in(folder, "is a diffusers pipeline (model_index.json): name one of its component folders "
                    + "(unet, transformer, text_encoder, vae), each a checkpoint of its own");
        }
        throw ModelFormatException.in(folder, files.isEmpty()
                ? "is a folder without model.safetensors, pytorch_model.bin or an *.index.json"
                : "is a folder of " + files.size() + " .safetensors files without an *.index.json saying how they go together");
    }

    private static List<Path> list(Path folder, String glob) {
        List<Path> out = new ArrayList<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(folder, glob)) {
            for (Path p : s) if (Files.isRegularFile(p)) out.add(p);
        } catch (IOException e) {
            throw ModelFormatException.in(folder, "cannot list the folder (" + e.getMessage() + ")");
        }
        out.sort(null);
        return out;
    }

    /** The index's weight map, checked: every key and value a string, at least one entry. */
    static Map<String, String> weightMap(Path index) {
        String source = index.toString();
        long size = ModelFiles.size(index);
        if (size > MAX_INDEX_BYTES) throw ModelFormatException.in(source, "index of " + size + " bytes is over the 100 MB limit");
        Map<String, Object> json;
        try {
            json = Json.parseObject(Files.readString(index, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw ModelFormatException.in(source, "cannot read (" + e.getMessage() + ")");
        } catch (SparseprofException e) {
            throw ModelFormatException.in(source, e.getMessage());
        }
        if (!(json.get("weight_map") instanceof Map<?, ?> map)) throw ModelFormatException.in(source, "has no weight_map object");
        if (map.isEmpty()) throw ModelFormatException.in(source, "weight_map is empty");
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : map.entrySet()) {
            if (!(e.getValue() instanceof String shard)) {
                throw ModelFormatException.in(source, "weight_map entry '" + e.getKey() + "' is not a file name");
            }
            out.put((String) e.getKey(), shard);
        }
        return out;
    }

    private static Model readIndex(Path index, String source) {
        Map<String, String> weightMap = weightMap(index);
        Path folder = index.toAbsolutePath().getParent();
        Map<String, Path> shards = new TreeMap<>();
        for (String shard : weightMap.values()) {
            if (!shards.containsKey(shard)) shards.put(shard, ModelFiles.confined(index, folder, shard));
        }
        Map<String, String> metadata = new LinkedHashMap<>(HfConfig.metadata(folder.resolve("config.json")));
        return ModelFiles.inArena(arena -> {
            Map<String, Tensor> byName = new HashMap<>();
            Map<String, String> shardOf = new HashMap<>();
            boolean torch = false;
            for (Map.Entry<String, Path> s : shards.entrySet()) {
                torch |= TorchZipReader.isTorchName(Path.of(s.getKey()));
                for (Tensor t : shardTensors(s.getKey(), s.getValue(), arena, metadata)) {
                    if (byName.putIfAbsent(t.name(), t) != null) {
                        throw ModelFormatException.in(index, "tensor '" + t.name() + "' is in both " + shardOf.get(t.name()) + " and " + s.getKey());
                    }
                    shardOf.put(t.name(), s.getKey());
                }
            }
            List<String> names = new ArrayList<>(weightMap.keySet());
            names.sort(NaturalOrder.INSTANCE);
            List<Tensor> tensors = new ArrayList<>(names.size());
            for (String name : names) {
                String shard = weightMap.get(name);
                Tensor t = byName.get(name);
                if (t == null || !shard.equals(shardOf.get(name))) {
                    throw ModelFormatException.in(index, "weight_map puts tensor '" + name + "' in " + shard + ", which does not hold it"
                            + (t == null ? "" : " (it is in " + shardOf.get(name) + ")"));
                }
                tensors.add(t);
            }
            metadata.put("format", "hf");
            metadata.put("hf.weights", torch ? "torch" : "safetensors");
            metadata.put("hf.index", index.getFileName().toString());
            metadata.put("hf.shards", Integer.toString(shards.size()));
            int unindexed = byName.size() - tensors.size();
            if (unindexed > 0) metadata.put("hf.unindexedTensors", Integer.toString(unindexed));
            return new Model(source, "hf", tensors, TensorLayers.of(tensors, metadata), metadata, arena);
        });
    }

    /**
     * One shard's tensors, its kind told by the name the index gives it ({@code listed}: the file may be
     * a hub cache blob named by its hash); a safetensors shard's note on tensors it holds only as bytes
     * joins {@code metadata}'s.
     */
    private static List<Tensor> shardTensors(String listed, Path shard, Arena arena, Map<String, String> metadata) {
        if (ModelFiles.nameEndsWith(Path.of(listed), ".safetensors")) {
            Map<String, String> own = new HashMap<>();
            List<Tensor> tensors = SafetensorsReader.tensors(shard.toString(), ModelFiles.map(shard, arena), own);
            String opaque = own.get(SafetensorsReader.OPAQUE);
            if (opaque != null) metadata.merge(SafetensorsReader.OPAQUE, shard.getFileName() + ": " + opaque, (a, b) -> a + "; " + b);
            return tensors;
        }
        if (TorchZipReader.isTorchName(Path.of(listed))) return TorchZipReader.tensors(shard, arena);
        throw ModelFormatException.in(shard, "shard '" + listed + "' is neither a .safetensors file nor a torch.save file (.bin, .pt, .pth)");
    }

    /** Name order that compares digit runs by value: {@code layers.2} before {@code layers.10}. */
    enum NaturalOrder implements Comparator<String> {
        INSTANCE;

        @Override
        public int compare(String a, String b) {
            int i = 0;
            int j = 0;
            while (i < a.length() && j < b.length()) {
                char x = a.charAt(i);
                char y = b.charAt(j);
                if (Character.isDigit(x) && Character.isDigit(y)) {
                    int i2 = i;
                    int j2 = j;
                    while (i2 < a.length() && Character.isDigit(a.charAt(i2))) i2++;
                    while (j2 < b.length() && Character.isDigit(b.charAt(j2))) j2++;
                    String da = strip(a.substring(i, i2));
                    String db = strip(b.substring(j, j2));
                    int c = da.length() != db.length() ? Integer.compare(da.length(), db.length()) : da.compareTo(db);
                    if (c != 0) return c;
                    i = i2;
                    j = j2;
                } else {
                    if (x != y) return Character.compare(x, y);
                    i++;
                    j++;
                }
            }
            int c = Integer.compare(a.length() - i, b.length() - j);
            return c != 0 ? c : a.compareTo(b);
        }

        private static String strip(String digits) {
            int k = 0;
            while (k < digits.length() - 1 && digits.charAt(k) == '0') k++;
            return digits.substring(k);
        }
    }
}
