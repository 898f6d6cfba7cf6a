package dev.sparseprof.model;

import dev.sparseprof.util.GrowLongArray;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One ONNX {@code NodeProto}: operator, its inputs and outputs by value name, the attributes
 * sparseprof uses (integers, integer lists, floats and tensors; other kinds are kept by name only),
 * and {@code module}: the PyTorch module the node was exported from, where torch.onnx's dynamo
 * exporter says it in the node's {@code namespace} metadata (IR 10 {@code metadata_props}), else "".
 */
record OnnxNode(String name, String opType, List<String> inputs, List<String> outputs, Map<String, Attribute> attributes, String module) {
    OnnxNode {
        inputs = List.copyOf(inputs);
        outputs = List.copyOf(outputs);
        attributes = Map.copyOf(attributes);
    }

    /**
     * An {@code AttributeProto}: {@code i}, {@code f}, {@code s}, {@code ints} or {@code t}, whichever
     * is set, and the subgraphs of an {@code If}/{@code Loop}/{@code Scan} body ({@code g}, {@code graphs}).
     */
    record Attribute(String name, long i, float f, String s, long[] ints, OnnxTensorProto t, List<OnnxGraph> graphs) {
        Attribute {
            ints = ints.clone();
            graphs = List.copyOf(graphs);
        }

        @Override
        public long[] ints() {
            return ints.clone();
        }
    }

    /** The input at {@code index}, or "" when the node has fewer (ONNX's omitted optional input). */
    String input(int index) {
        return index < inputs.size() ? inputs.get(index) : "";
    }

    long intAttribute(String key, long fallback) {
        Attribute a = attributes.get(key);
        return a == null ? fallback : a.i();
    }

    String stringAttribute(String key, String fallback) {
        Attribute a = attributes.get(key);
        return a == null ? fallback : a.s();
    }

    float floatAttribute(String key, float fallback) {
        Attribute a = attributes.get(key);
        return a == null ? fallback : a.f();
    }

    /** The subgraphs this node's attributes hold (an If's branches, a Loop's body), in attribute order. */
    List<OnnxGraph> subgraphs() {
        List<OnnxGraph> out = new ArrayList<>();
        for (Attribute a : attributes.values()) out.addAll(a.graphs());
        return out;
    }

    long[] intsAttribute(String key) {
        Attribute a = attributes.get(key);
        return a == null ? new long[0] : a.ints();
    }

    /** A readable name: the node's own, else {@code OpType(first output)}. */
    String displayName() {
        if (!name.isEmpty()) return name;
        return opType + "(" + (outputs.isEmpty() ? "" : outputs.get(0)) + ")";
    }

    static OnnxNode parse(ProtoReader p) {
        List<String> inputs = new ArrayList<>();
        List<String> outputs = new ArrayList<>();
        String name = "";
        String opType = "";
        Map<String, Attribute> attributes = new LinkedHashMap<>();
        String module = "";
        while (p.next()) {
            if (p.wireType() != ProtoReader.LENGTH_DELIMITED) {
                p.skip();
                continue;
            }
            switch (p.field()) {
                case 1 -> inputs.add(p.string());
                case 2 -> outputs.add(p.string());
                case 3 -> name = p.string();
                case 4 -> opType = p.string();
                case 5 -> {
                    Attribute a = parseAttribute(p.message());
                    attributes.put(a.name(), a);
                }
                case 9 -> {
                    String[] entry = parseEntry(p.message());
                    if (entry[0].equals("namespace")) module = moduleOf(entry[1]);
                }
                default -> p.skip();
            }
        }
        if (opType.isEmpty()) throw p.fault("node '" + name + "' has no op_type");
        return new OnnxNode(name, opType, inputs, outputs, attributes, module);
    }

    /** A {@code StringStringEntryProto}: key (1) and value (2). */
    private static String[] parseEntry(ProtoReader p) {
        String[] kv = {"", ""};
        while (p.next()) {
            if (p.wireType() == ProtoReader.LENGTH_DELIMITED && (p.field() == 1 || p.field() == 2)) kv[p.field() - 1] = p.string();
            else p.skip();
        }
        return kv;
    }

    /**
     * The module path in a dynamo export's namespace, {@code ": __main__.Top/blocks.0: Block/blocks.0.proj.2:
     * torch.nn.modules.linear.Linear/linear_1: aten.linear.default"}: the name of the segment before the
     * op's own (segments {@code name: type} joined by '/'), {@code blocks.0.proj.2}; "" at the root.
     */
    static String moduleOf(String namespace) {
        String[] segments = namespace.split("/");
        if (segments.length < 2) return "";
        String owner = segments[segments.length - 2];
        int colon = owner.indexOf(": ");
        return colon <= 0 ? "" : owner.substring(0, colon).strip();
    }

    private static Attribute parseAttribute(ProtoReader p) {
        String name = "";
        long i = 0;
        float f = 0;
        String s = "";
        GrowLongArray ints = new GrowLongArray(0);
        OnnxTensorProto t = null;
        List<OnnxGraph> graphs = new ArrayList<>();
        while (p.next()) {
            switch (p.field()) {
                case 1 -> {
                    p.expect(ProtoReader.LENGTH_DELIMITED);
                    name = p.string();
                }
                case 2 -> {
                    p.expect(ProtoReader.FIXED32);
                    f = Float.intBitsToFloat(p.fixed32());
                }
                case 3 -> {
                    p.expect(ProtoReader.VARINT);
                    i = p.varint();
                }
                case 4 -> {
                    p.expect(ProtoReader.LENGTH_DELIMITED);
                    s = p.string();
                }
                case 5 -> {
                    p.expect(ProtoReader.LENGTH_DELIMITED);
                    t = OnnxTensorProto.parse(p.message());
                }
                case 6, 11 -> {
                    p.expect(ProtoReader.LENGTH_DELIMITED);
                    graphs.add(OnnxGraph.parseGraph(p.message()));
                }
                case 8 -> OnnxTensorProto.readInts(p, ints);
                default -> p.skip();
            }
        }
        return new Attribute(name, i, f, s, ints.toArray(), t, graphs);
    }
}
