package dev.sparseprof.model;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The weights of a checkpoint's tensors that are stored encoded rather than as plain float tensors,
 * each read by its own view: gpt-oss's MXFP4 experts ({@link Mxfp4Matrix}), compressed-tensors'
 * bitmask-sparse weights ({@link BitmaskMatrix}), int32-packed GPTQ, AWQ and pack-quantized codes
 * ({@link PackedIntMatrix}), NVFP4/MXFP4 codes ({@link Fp4Matrix}), bitsandbytes' 4-bit and
 * LLM.int8 weights ({@link BnbMatrix}), MLX's affine-quantized weights ({@link MlxMatrix}), AQLM's
 * additive codebook codes ({@link AqlmMatrix}) and HQQ's packed codes ({@link HqqMatrix}).
 *
 * @param layers  the decoded layers
 * @param claimed the name of every tensor such a weight stores, decoded or not: none of them is a
 *                layer of its own, nor an integer weight left out
 * @param notes   metadata notes ({@code bitmask.skipped}, {@code packed.skipped}) naming the sets whose
 *                tensors do not hold together, which are left out
 */
record EncodedLayers(List<GemmLayer> layers, Set<String> claimed, Map<String, String> notes) {
    /** Faults named in a note, at most. */
    private static final int NAMED = 3;

    /** The encoded weights among {@code tensors} ({@code byName} indexes them), with the config's facts in {@code metadata}. */
    static EncodedLayers of(List<Tensor> tensors, Map<String, Tensor> byName, Map<String, String> metadata) {
        List<GemmLayer> layers = new ArrayList<>();
        Set<String> claimed = new HashSet<>();
        Map<String, String> notes = new LinkedHashMap<>();
        for (GemmLayer l : Mxfp4Matrix.layers(tensors, byName)) {
            layers.add(l);
            claimed.add(l.tensorName());
        }
        List<String> bitmaskFaults = new ArrayList<>();
        layers.addAll(BitmaskMatrix.layers(tensors, byName, bitmaskFaults));
        claimed.addAll(BitmaskMatrix.parts(tensors, byName));
        note(notes, "bitmask.skipped", bitmaskFaults, "bitmask-compressed weight(s) whose tensors disagree, left out: ");
        List<String> packedFaults = new ArrayList<>();
        List<String> packedParts = new ArrayList<>();
        layers.addAll(PackedIntMatrix.layers(tensors, byName, metadata, packedFaults, packedParts));
        layers.addAll(Fp4Matrix.layers(tensors, byName, packedFaults, packedParts));
        layers.addAll(BnbMatrix.layers(tensors, byName, packedFaults, packedParts));
        layers.addAll(BnbMatrix.int8Layers(tensors, byName, packedFaults, packedParts));
        layers.addAll(MlxMatrix.layers(tensors, byName, metadata, packedFaults, packedParts));
        layers.addAll(AqlmMatrix.layers(tensors, byName, packedFaults, packedParts));
        layers.addAll(HqqMatrix.layers(tensors, byName, packedFaults, packedParts));
        claimed.addAll(packedParts);
        note(notes, "packed.skipped", packedFaults, "packed weight(s) (GPTQ, AWQ, compressed-tensors pack-quantized, NVFP4/MXFP4, bitsandbytes, MLX, AQLM, HQQ) not read, left out: ");
        return new EncodedLayers(layers, claimed, notes);
    }

    private static void note(Map<String, String> notes, String key, List<String> faults, String what) {
        if (!faults.isEmpty()) notes.put(key, faults.size() + " " + what + String.join("; ", faults.subList(0, Math.min(NAMED, faults.size()))));
    }
}
