package dev.sparseprof.model;

import dev.sparseprof.util.GrowLongArray;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The parts of an ONNX {@code ModelProto} sparseprof reads: the graph's nodes in order, its
 * initializers, the static shapes known for values (graph inputs, outputs and {@code value_info};
 * symbolic dimensions are -1), and producer metadata.
 */
record OnnxGraph(List<OnnxNode> nodes, List<OnnxTensorProto> initializers, Map<String, long[]> valueShapes,
                 Map<String, String> metadata) {
    OnnxGraph {
        nodes = List.copyOf(nodes);
        initializers = List.copyOf(initializers);
        valueShapes = Map.copyOf(valueShapes);
        metadata = Map.copyOf(metadata);
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
                default -> p.skip();
            }
        }
        if (graph == null) throw p.fault("no graph (not an ONNX ModelProto)");
        Map<String, String> all = new LinkedHashMap<>(metadata);
        all.putAll(graph.metadata());
        return new OnnxGraph(graph.nodes(), graph.initializers(), graph.valueShapes(), all);
    }

    private static OnnxGraph parseGraph(ProtoReader p) {
        List<OnnxNode> nodes = new ArrayList<>();
        List<OnnxTensorProto> initializers = new ArrayList<>();
        Map<String, long[]> shapes = new LinkedHashMap<>();
        Map<String, String> metadata = new LinkedHashMap<>();
        while (p.next()) {
            if (p.wireType() != ProtoReader.LENGTH_DELIMITED) {
                p.skip();
                continue;
            }
            switch (p.field()) {
                case 1 -> nodes.add(OnnxNode.parse(p.message()));
                case 2 -> metadata.put("graph_name", p.string());
                case 5 -> initializers.add(OnnxTensorProto.parse(p.message()));
                case 11, 12, 13 -> readValueInfo(p.message(), shapes);
                default -> p.skip();
            }
        }
        return new OnnxGraph(nodes, initializers, shapes, metadata);
    }

    /** {@code ValueInfoProto{name=1, type=2{tensor_type=1{elem_type=1, shape=2{dim=1{dim_value=1}}}}}}. */
    private static void readValueInfo(ProtoReader p, Map<String, long[]> shapes) {
        String name = null;
        long[] shape = null;
        while (p.next()) {
            if (p.field() == 1 && p.wireType() == ProtoReader.LENGTH_DELIMITED) name = p.string();
            else if (p.field() == 2 && p.wireType() == ProtoReader.LENGTH_DELIMITED) shape = readType(p.message());
            else p.skip();
        }
        if (name != null && shape != null) shapes.put(name, shape);
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
