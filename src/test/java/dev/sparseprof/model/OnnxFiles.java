package dev.sparseprof.model;

/**
 * Builders of small ONNX protos for tests: tensors, nodes, graphs and models, field numbers from
 * onnx.proto (ModelProto.graph=7, GraphProto.node=1/initializer=5/input=11/output=12,
 * NodeProto.input=1/output=2/name=3/op_type=4/attribute=5, TensorProto.dims=1/data_type=2/
 * float_data=4/name=8/raw_data=9/external_data=13/data_location=14).
 */
public final class OnnxFiles {
    public static final int FLOAT = 1;
    public static final int INT8 = 3;

    private OnnxFiles() {}

    public static ProtoWriter rawTensor(String name, int dataType, byte[] raw, long... dims) {
        ProtoWriter t = new ProtoWriter();
        t.packedVarints(1, dims).varint(2, dataType).string(8, name).bytes(9, raw);
        return t;
    }

    /** float_data, packed or one key per element. */
    public static ProtoWriter floatTensor(String name, boolean packed, float[] values, long... dims) {
        ProtoWriter t = new ProtoWriter();
        if (packed) {
            t.packedVarints(1, dims);
        } else {
            for (long d : dims) t.varint(1, d);
        }
        t.varint(2, FLOAT).string(8, name);
        if (packed) {
            t.packedFloats(4, values);
        } else {
            for (float v : values) t.fixed32(4, Float.floatToRawIntBits(v));
        }
        return t;
    }

    public static ProtoWriter externalTensor(String name, String location, long offset, long length, long... dims) {
        ProtoWriter t = new ProtoWriter();
        t.packedVarints(1, dims).varint(2, FLOAT).string(8, name);
        t.message(13, new ProtoWriter().string(1, "location").string(2, location));
        t.message(13, new ProtoWriter().string(1, "offset").string(2, Long.toString(offset)));
        t.message(13, new ProtoWriter().string(1, "length").string(2, Long.toString(length)));
        t.varint(14, 1);
        return t;
    }

    public static ProtoWriter node(String name, String op, String[] inputs, String[] outputs, ProtoWriter... attributes) {
        ProtoWriter n = new ProtoWriter();
        for (String i : inputs) n.string(1, i);
        for (String o : outputs) n.string(2, o);
        n.string(3, name).string(4, op);
        for (ProtoWriter a : attributes) n.message(5, a);
        return n;
    }

    public static ProtoWriter intAttribute(String name, long value) {
        return new ProtoWriter().string(1, name).varint(3, value).varint(20, 2);
    }

    public static ProtoWriter intsAttribute(String name, long... values) {
        return new ProtoWriter().string(1, name).packedVarints(8, values).varint(20, 7);
    }

    public static ProtoWriter stringAttribute(String name, String value) {
        return new ProtoWriter().string(1, name).string(4, value).varint(20, 3);
    }

    public static ProtoWriter graphAttribute(String name, ProtoWriter graph) {
        return new ProtoWriter().string(1, name).message(6, graph).varint(20, 5);
    }

    /** SparseTensorProto{values=1, indices=2 (int64, linear), dims=3} for GraphProto.sparse_initializer (15). */
    public static ProtoWriter sparseTensor(String name, float[] values, long[] linearIndices, long... dims) {
        ProtoWriter indices = new ProtoWriter().packedVarints(1, linearIndices.length).varint(2, 7).packedVarints(7, linearIndices);
        return new ProtoWriter().message(1, rawTensor(name, FLOAT, ProtoWriter.floatsLE(values), values.length))
                .message(2, indices).packedVarints(3, dims);
    }

    public static ProtoWriter tensorAttribute(String name, ProtoWriter tensor) {
        return new ProtoWriter().string(1, name).message(5, tensor).varint(20, 4);
    }

    /** ValueInfoProto with a float tensor type of static shape. */
    public static ProtoWriter valueInfo(String name, long... dims) {
        ProtoWriter shape = new ProtoWriter();
        for (long d : dims) shape.message(1, new ProtoWriter().varint(1, d));
        ProtoWriter tensorType = new ProtoWriter().varint(1, FLOAT).message(2, shape);
        return new ProtoWriter().string(1, name).message(2, new ProtoWriter().message(1, tensorType));
    }

    public static byte[] model(ProtoWriter graph) {
        return new ProtoWriter().varint(1, 8).string(2, "sparseprof-test").message(7, graph).toByteArray();
    }
}
