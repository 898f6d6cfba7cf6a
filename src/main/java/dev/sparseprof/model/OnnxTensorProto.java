package dev.sparseprof.model;

import dev.sparseprof.util.GrowLongArray;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The fields of one ONNX {@code TensorProto} that sparseprof reads, before decoding: where its
 * bytes are ({@code raw_data} span in the model file, typed values, or external data entries).
 *
 * <p>{@code rawStart < 0} means no {@code raw_data}; {@code typedValues} holds the elements of
 * whichever typed field ({@code float_data}, {@code int32_data}, {@code int64_data},
 * {@code double_data}, {@code uint64_data}) was present, each widened to a long (floats and doubles
 * as their bit patterns), in file order, packed or not.
 *
 * <p>{@code floatsStart >= 0} says where {@code float_data}'s values sit in the file when they can
 * be rewritten in place: one packed span ({@code floatsStride} 4) or one key per element written
 * back to back ({@code floatsStride} 5: a 1-byte key, then the 4 value bytes); else -1.
 */
record OnnxTensorProto(String name, int dataType, long[] dims, long rawStart, long rawLength,
                       int typedField, long[] typedValues, Map<String, String> externalData, boolean external,
                       long floatsStart, long floatsStride) {
    static final int DIMS = 1;
    static final int DATA_TYPE = 2;
    static final int FLOAT_DATA = 4;
    static final int INT32_DATA = 5;
    static final int INT64_DATA = 7;
    static final int NAME = 8;
    static final int RAW_DATA = 9;
    static final int DOUBLE_DATA = 10;
    static final int UINT64_DATA = 11;
    static final int EXTERNAL_DATA = 13;
    static final int DATA_LOCATION = 14;

    OnnxTensorProto {
        dims = dims.clone();
        typedValues = typedValues.clone();
        externalData = Map.copyOf(externalData);
    }

    @Override
    public long[] dims() {
        return dims.clone();
    }

    /** Parses a {@code TensorProto} message. */
    static OnnxTensorProto parse(ProtoReader p) {
        String name = "";
        int dataType = 0;
        GrowLongArray dims = new GrowLongArray(4);
        long rawStart = -1;
        long rawLength = 0;
        int typedField = 0;
        GrowLongArray typed = new GrowLongArray(0);
        Map<String, String> external = new LinkedHashMap<>();
        boolean isExternal = false;
        long floatsStart = -1;
        long floatsStride = 0;
        boolean floatsInPlace = true;
        long lastFloatEnd = -1;
        while (p.next()) {
            switch (p.field()) {
                case DIMS -> readInts(p, dims);
                case DATA_TYPE -> {
                    p.expect(ProtoReader.VARINT);
                    dataType = (int) p.varint();
                }
                case NAME -> {
                    p.expect(ProtoReader.LENGTH_DELIMITED);
                    name = p.string();
                }
                case RAW_DATA -> {
                    p.expect(ProtoReader.LENGTH_DELIMITED);
                    rawStart = p.span();
                    rawLength = p.position() - rawStart;
                }
                case FLOAT_DATA, INT32_DATA, INT64_DATA, DOUBLE_DATA, UINT64_DATA -> {
                    if (typedField != 0 && typedField != p.field()) {
                        throw p.fault("tensor '" + name + "' has two typed data fields");
                    }
                    typedField = p.field();
                    long keyEnd = p.position();
                    int before = typed.size();
                    readTyped(p, typed);
                    if (p.field() == FLOAT_DATA && floatsInPlace) {
                        if (p.wireType() == ProtoReader.LENGTH_DELIMITED) {
                            // packed: the values are the last 4*k bytes of the span just read
                            boolean first = floatsStart < 0;
                            floatsStart = p.position() - 4L * (typed.size() - before);
                            floatsStride = 4;
                            floatsInPlace = first;
                        } else {
                            long valueStart = keyEnd;
                            if (floatsStart < 0) {
                                floatsStart = valueStart;
                                floatsStride = 5;
                            } else if (floatsStride != 5 || valueStart != lastFloatEnd + 1) {
                                floatsInPlace = false;
                            }
                            lastFloatEnd = p.position();
                        }
                    }
                }
                case EXTERNAL_DATA -> {
                    p.expect(ProtoReader.LENGTH_DELIMITED);
                    readEntry(p.message(), external);
                }
                case DATA_LOCATION -> {
                    p.expect(ProtoReader.VARINT);
                    isExternal = p.varint() == 1;
                }
                default -> p.skip();
            }
        }
        if (!floatsInPlace || typedField != FLOAT_DATA) floatsStart = -1;
        return new OnnxTensorProto(name, dataType, dims.toArray(), rawStart, rawLength, typedField,
                typed.toArray(), external, isExternal, floatsStart, floatsStride);
    }

    /** A repeated varint field, packed (one span) or not (one key per element). */
    static void readInts(ProtoReader p, GrowLongArray into) {
        if (p.wireType() == ProtoReader.LENGTH_DELIMITED) {
            ProtoReader packed = p.message();
            while (packed.position() < p.position()) into.add(packed.varint());
        } else {
            p.expect(ProtoReader.VARINT);
            into.add(p.varint());
        }
    }

    private static void readTyped(ProtoReader p, GrowLongArray into) {
        int element = switch (p.field()) {
            case FLOAT_DATA -> ProtoReader.FIXED32;
            case DOUBLE_DATA -> ProtoReader.FIXED64;
            default -> ProtoReader.VARINT;
        };
        if (p.wireType() == ProtoReader.LENGTH_DELIMITED) {
            ProtoReader packed = p.message();
            while (packed.position() < p.position()) into.add(readElement(packed, element));
        } else {
            p.expect(element);
            into.add(readElement(p, element));
        }
    }

    private static long readElement(ProtoReader p, int element) {
        return switch (element) {
            case ProtoReader.FIXED32 -> p.fixed32() & 0xffffffffL;
            case ProtoReader.FIXED64 -> p.fixed64();
            default -> p.varint();
        };
    }

    private static void readEntry(ProtoReader p, Map<String, String> into) {
        String key = null;
        String value = "";
        while (p.next()) {
            if (p.field() == 1 && p.wireType() == ProtoReader.LENGTH_DELIMITED) key = p.string();
            else if (p.field() == 2 && p.wireType() == ProtoReader.LENGTH_DELIMITED) value = p.string();
            else p.skip();
        }
        if (key == null) throw p.fault("external_data entry without a key");
        into.put(key, value);
    }
}
