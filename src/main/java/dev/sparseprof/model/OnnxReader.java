package dev.sparseprof.model;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * ONNX models ({@code .onnx}): a protobuf {@code ModelProto} read with {@link ProtoReader}. Weights
 * come from the graph's initializers and from {@code Constant} nodes' {@code value} tensors (some
 * exporters write no initializers); layers are found by {@link OnnxLayers} from the nodes that
 * consume them.
 */
final class OnnxReader implements ModelReader {
    @Override
    public String name() {
        return "onnx";
    }

    @Override
    public boolean accepts(Path file) {
        return ModelFiles.nameEndsWith(file, ".onnx");
    }

    @Override
    public Model read(Path file) {
        return read(file, ReadOptions.NONE);
    }

    @Override
    public Model read(Path file, ReadOptions options) {
        return ModelFiles.inArena(arena -> read(file.toString(), ModelFiles.map(file, arena), file.toAbsolutePath().getParent(), arena, options));
    }

    static Model read(String source, MemorySegment bytes, Path folder, Arena arena) {
        return read(source, bytes, folder, arena, ReadOptions.NONE);
    }

    /**
     * Reads a model already in memory ({@code bytes}, owned by {@code arena}, which the returned
     * model closes). {@code folder} is where external data may be; null forbids external data.
     * {@code options}' input shapes drive the shape propagation ({@link OnnxShapes}).
     */
    static Model read(String source, MemorySegment bytes, Path folder, Arena arena, ReadOptions options) {
        if (bytes.byteSize() == 0) throw ModelFormatException.in(source, "empty file");
        OnnxGraph graph = OnnxGraph.parseModel(ProtoReader.of(source, bytes));
        OnnxTensorDecoder decoder = new OnnxTensorDecoder(source, bytes, folder, arena);
        Map<String, Tensor> tensors = new LinkedHashMap<>();
        int skipped = 0;
        for (OnnxTensorProto proto : graph.initializers()) {
            Tensor t = decoder.decode(proto, "initializer_" + tensors.size());
            if (t == null) skipped++;
            else tensors.put(t.name(), t);
        }
        for (OnnxNode node : graph.nodes()) {
            if (!node.opType().equals("Constant") || node.outputs().isEmpty()) continue;
            OnnxNode.Attribute value = node.attributes().get("value");
            if (value == null || value.t() == null) continue;
            Tensor t = decoder.decode(value.t(), node.outputs().get(0));
            if (t == null) {
                skipped++;
                continue;
            }
            // A Constant's value is known by the node's output name, whatever the tensor calls itself.
            String name = node.outputs().get(0);
            tensors.put(name, new Tensor(name, t.dtype(), t.shape(), t.data()));
        }
        for (OnnxGraph.SparseInitializer sparse : graph.sparseInitializers()) {
            Tensor t = decoder.densify(sparse, "sparse_initializer_" + tensors.size());
            if (t == null) skipped++;
            else tensors.put(t.name(), t);
        }
        Map<String, String> metadata = new LinkedHashMap<>(graph.metadata());
        if (!graph.sparseInitializers().isEmpty()) metadata.put("sparse_initializers", Integer.toString(graph.sparseInitializers().size()));
        if (skipped > 0) metadata.put("skipped_tensors", skipped + " (string, uint32/64, complex or 4-bit types)");
        List<GemmLayer> layers = OnnxLayers.find(source, graph, tensors, options.inputShapes(), metadata);
        return new Model(source, "onnx", new ArrayList<>(tensors.values()), layers, metadata, arena);
    }
}
