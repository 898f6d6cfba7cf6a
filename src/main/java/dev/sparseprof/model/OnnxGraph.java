package dev.sparseprof.model;

import dev.sparseprof.util.GrowLongArray;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The parts of an ONNX {@code ModelProto} sparseprof reads: the graph's nodes in order, its
 * initializers and sparse initializers, the static shapes known for values (graph inputs, outputs
 * and {@code value_info}; symbolic dimensions are -1), the graph's declared inputs, and producer
 * metadata.
 *
 * <p>The subgraphs of control-flow nodes ({@code If} branches, {@code Loop}/{@code Scan} bodies)
 * are flattened into the lists: each node is followed by its subgraphs' nodes, and their
 * initializers and shapes join the outer graph's, so weights inside a branch are found like any
 * other (ONNX value names are unique across a model's scopes, outer names visible inside).
 */
record OnnxGraph(List<OnnxNode> nodes, List<OnnxTensorProto> initializers, List<SparseInitializer> sparseInitializers,
                 Map<String, long[]> valueShapes, List<String> inputs, Map<String, String> metadata) {
    OnnxGraph {
        nodes = List.copyOf(nodes);
        initializers = List.copyOf(initializers);
        sparseInitializers = List.copyOf(sparseInitializers);
        valueShapes = Map.copyOf(valueShapes);
        inputs = List.copyOf(inputs);
        metadata = Collections.unmodifiableMap(new LinkedHashMap<>(metadata));   // the file's order (see Model)
    }

    /**
     * The stored integer tensors behind {@code DequantizeLinear} outputs (onnxruntime's QDQ form of
     * {@code quantize_static}): each output name to the tensor of {@code tensors} it dequantizes, the
     * first node's where names repeat. A weight multiplied through such a node is that stored tensor,
     * with its shape, its integer type and the node's scale and zero point.
     */
    Map<String, Tensor> dequantized(Map<String, Tensor> tensors) {
        Map<String, Tensor> out = new HashMap<>();
        for (OnnxNode n : nodes) {
            Tensor q = n.opType().equals("DequantizeLinear") && !n.outputs().isEmpty() ? tensors.get(n.input(0)) : null;
            if (q != null) out.putIfAbsent(n.outputs().get(0), q);
        }
        return out;
    }

    /** A {@code SparseTensorProto}: {@code values} (1-D), {@code indices} ([nnz] linear or [nnz, rank]), dense {@code dims}. */
    record SparseInitializer(OnnxTensorProto values, OnnxTensorProto indices, long[] dims) {
        SparseInitializer {
            dims = dims.clone();
        }

        @Override
        public long[] dims() {
            return dims.clone();
        }
    }

    /** Parses a whole {@code ModelProto}; a file without a graph is an error. */
    static OnnxGraph parseModel(ProtoReader p) {
        Map<String, String> metadata = new LinkedHashMap<>();
        OnnxGraph graph = null;
        while (p.next()) {
            switch (p.field()) {
                case 1 -> {
                    p.expect(ProtoReader.VARINT);
                    metadata.put("ir_version", Long.toString(p.varint()));
                }
                case 2 -> {
                    p.expect(ProtoReader.LENGTH_DELIMITED);
                    metadata.put("producer_name", p.string());
                }
                case 3 -> {
                    p.expect(ProtoReader.LENGTH_DELIMITED);
                    metadata.put("producer_version", p.string());
                }
                case 7 -> {
                    p.expect(ProtoReader.LENGTH_DELIMITED);
                    graph = parseGraph(p.message());
                }
                case 14 -> {
                    // metadata_props: StringStringEntryProto{key=1, value=2}
                    p.expect(ProtoReader.LENGTH_DELIMITED);
                    ProtoReader entry = p.message();
                    String key = null;
                    String value = "";
                    while (entry.next()) {
                        if (entry.field() == 1 && entry.wireType() == ProtoReader.LENGTH_DELIMITED) key = entry.string();
                        else if (entry.field() == 2 && entry.wireType() == ProtoReader.LENGTH_DELIMITED) value = entry.string();
                        else entry.skip();
                    }
                    if (key != null) metadata.put(key, value);
                }
                default -> p.skip();
            }
        }
        if (graph == null) throw p.fault("no graph (not an ONNX ModelProto)");
        Map<String, String> all = new LinkedHashMap<>(metadata);
        all.putAll(graph.metadata());
        return new OnnxGraph(graph.nodes(), graph.initializers(), graph.sparseInitializers(), graph.valueShapes(),
                graph.inputs(), all);
    }

    /** Parses a {@code GraphProto}, its control-flow subgraphs flattened in (see the class comment). */
    static OnnxGraph parseGraph(ProtoReader p) {
        List<OnnxNode> nodes = new ArrayList<>();
        List<OnnxTensorProto> initializers = new ArrayList<>();
        List<SparseInitializer> sparse = new ArrayList<>();
        Map<String, long[]> shapes = new LinkedHashMap<>();
        List<String> inputs = new ArrayList<>();
        Map<String, String> metadata = new LinkedHashMap<>();
        while (p.next()) {
            if (p.wireType() != ProtoReader.LENGTH_DELIMITED) {
                p.skip();
                continue;
            }
            switch (p.field()) {
                case 1 -> {
                    OnnxNode node = OnnxNode.parse(p.message());
                    nodes.add(node);
                    for (OnnxGraph sub : node.subgraphs()) {
                        nodes.addAll(sub.nodes());
                        initializers.addAll(sub.initializers());
                        sparse.addAll(sub.sparseInitializers());
                        for (Map.Entry<String, long[]> e : sub.valueShapes().entrySet()) shapes.putIfAbsent(e.getKey(), e.getValue());
                    }
                }
                case 2 -> metadata.put("graph_name", p.string());
                case 5 -> initializers.add(OnnxTensorProto.parse(p.message()));
                case 11 -> {
                    String name = readValueInfo(p.message(), shapes);
                    if (name != null) inputs.add(name);
                }
                case 12, 13 -> readValueInfo(p.message(), shapes);
                case 15 -> sparse.add(readSparse(p.message()));
                default -> p.skip();
            }
        }
        return new OnnxGraph(nodes, initializers, sparse, shapes, inputs, metadata);
    }

    private static SparseInitializer readSparse(ProtoReader p) {
        OnnxTensorProto values = null;
        OnnxTensorProto indices = null;
        GrowLongArray dims = new GrowLongArray(4);
        while (p.next()) {
            switch (p.field()) {
                case 1 -> {
                    p.expect(ProtoReader.LENGTH_DELIMITED);
                    values = OnnxTensorProto.parse(p.message());
                }
                case 2 -> {
                    p.expect(ProtoReader.LENGTH_DELIMITED);
                    indices = OnnxTensorProto.parse(p.message());
                }
                case 3 -> OnnxTensorProto.readInts(p, dims);
                default -> p.skip();
            }
        }
        if (values == null || indices == null) throw p.fault("sparse_initializer without values or indices");
        return new SparseInitializer(values, indices, dims.toArray());
    }

    /** {@code ValueInfoProto{name=1, type=2{tensor_type=1{elem_type=1, shape=2{dim=1{dim_value=1}}}}}}. */
    private static String readValueInfo(ProtoReader p, Map<String, long[]> shapes) {
        String name = null;
        long[] shape = null;
        while (p.next()) {
            if (p.field() == 1 && p.wireType() == ProtoReader.LENGTH_DELIMITED) name = p.string();
            else if (p.field() == 2 && p.wireType() == ProtoReader.LENGTH_DELIMITED) shape = readType(p.message());
            else p.skip();
        }
        if (name != null && shape != null) shapes.put(name, shape);
        return name;
    }

    private static long[] readType(ProtoReader type) {
        long[] shape = null;
        while (type.next()) {
            if (type.field() == 1 && type.wireType() == ProtoReader.LENGTH_DELIMITED) {
                ProtoReader tensor = type.message();
                while (tensor.next()) {
                    if (tensor.field() == 2 && tensor.wireType() == ProtoReader.LENGTH_DELIMITED) {
                        shape = readShape(tensor.message());
                    } else {
                        tensor.skip();
                    }
                }
            } else {
                type.skip();
            }
        }
        return shape;
    }

    private static long[] readShape(ProtoReader shape) {
        GrowLongArray dims = new GrowLongArray(4);
        while (shape.next()) {
            if (shape.field() != 1 || shape.wireType() != ProtoReader.LENGTH_DELIMITED) {
                shape.skip();
                continue;
            }
            ProtoReader dim = shape.message();
            long value = -1;
            while (dim.next()) {
                if (dim.field() == 1 && dim.wireType() == ProtoReader.VARINT) value = dim.varint();
                else dim.skip();
            }
            dims.add(value);
        }
        return dims.toArray();
    }
}
