package dev.sparseprof.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A weight that reaches its op through ops that only move whole rows of stored tensors, a row being
 * a run of the last axis. PyTorch exports an LSTM or GRU this way where constant folding does not
 * run (inside an {@code If} branch, or with {@code do_constant_folding=False}): its gates i, f, g, o
 * become ONNX's i, o, f, c as {@code Unsqueeze(Concat(Slice(W, 0:H), Slice(W, 3H:4H), Slice(W,
 * H:3H)), 0)} (silero-vad v5's decoder LSTM, npm {@code @ricky0123/vad-web}), and a bidirectional
 * one concatenates that of {@code weight_ih_l0} with that of {@code weight_ih_l0_reverse}. Followed:
 * {@code Identity}; {@code Unsqueeze}, {@code Squeeze} and {@code Reshape} that keep the last axis;
 * {@code Slice} with step 1 and {@code Concat}, each along one axis before the last whose leading
 * axes are all 1 (so that the axis indexes runs of whole rows). Anything else is not followed.
 *
 * @param shape    the shape of the value the op consumes
 * @param segments the value's rows in order, as runs of consecutive rows of stored tensors (of one
 *                 dtype and row length)
 */
record OnnxRowSource(long[] shape, List<Segment> segments) {
    /** Rows {@code [first, first + rows)} of the value are rows {@code [sourceRow, sourceRow + rows)} of {@code source}. */
    record Segment(long first, Tensor source, long sourceRow, long rows) {}

    /** Where a run of the value's rows is stored: {@code row} of {@code source}. */
    record Place(Tensor source, long row) {}

    /** How many producing nodes one weight's resolution may visit. */
    private static final int MAX_NODES = 256;

    OnnxRowSource {
        shape = shape.clone();
        segments = List.copyOf(segments);
    }

    @Override
    public long[] shape() {
        return shape.clone();
    }

    /** A stored tensor as it is. */
    static OnnxRowSource of(Tensor t) {
        long cols = t.rank() == 0 ? 1 : t.dim(t.rank() - 1);
        long rows = cols == 0 ? 0 : t.elementCount() / cols;
        return new OnnxRowSource(t.shape(), List.of(new Segment(0, t, 0, rows)));
    }

    /**
     * The value {@code name}: a stored tensor, or row moves of one ({@code producers}: each value's
     * producing node); null when neither.
     */
    static OnnxRowSource resolve(String name, Map<String, Tensor> tensors, Map<String, OnnxNode> producers) {
        return new Resolver(tensors, producers).resolve(name);
    }

    /** One resolution: the graph, and how many nodes it may still visit (a Concat of Concats stays bounded). */
    private static final class Resolver {
        private final Map<String, Tensor> tensors;
        private final Map<String, OnnxNode> producers;
        private int budget = MAX_NODES;

        Resolver(Map<String, Tensor> tensors, Map<String, OnnxNode> producers) {
            this.tensors = tensors;
            this.producers = producers;
        }

        OnnxRowSource resolve(String name) {
            Tensor stored = tensors.get(name);
            if (stored != null) return stored.rank() == 0 ? null : of(stored);
            OnnxNode node = producers.get(name);
            if (node == null || --budget < 0) return null;
            return switch (node.opType()) {
                case "Identity" -> resolve(node.input(0));
                case "Unsqueeze", "Squeeze", "Reshape" -> {
                    OnnxRowSource in = resolve(node.input(0));
                    yield in == null ? null : in.reshaped(outputShape(node, in.shape, tensors));
                }
                case "Slice" -> {
                    OnnxRowSource in = resolve(node.input(0));
                    yield in == null ? null : in.sliced(node, tensors);
                }
                case "Concat" -> concat(node);
                default -> null;
            };
        }

        /** {@code Concat} of row moves (of stored tensors of one dtype and row length) along one row axis. */
        private OnnxRowSource concat(OnnxNode node) {
            List<OnnxRowSource> parts = new ArrayList<>();
            for (String input : node.inputs()) {
                OnnxRowSource part = resolve(input);
                if (part == null || (!parts.isEmpty() && (part.rank() != parts.get(0).rank() || !part.sameKind(parts.get(0))))) return null;
                parts.add(part);
            }
            if (parts.isEmpty()) return null;
            OnnxRowSource first = parts.get(0);
            int axis = first.rowAxis(node.intAttribute("axis", 0));
            if (axis < 0) return null;
            long[] out = first.shape.clone();
            out[axis] = 0;
            List<Segment> segments = new ArrayList<>();
            long at = 0;
            for (OnnxRowSource p : parts) {
                for (int i = 0; i < out.length; i++) if (i != axis && p.shape[i] != first.shape[i]) return null;
                out[axis] += p.shape[axis];
                for (Segment s : p.segments) segments.add(new Segment(at + s.first, s.source, s.sourceRow, s.rows));
                at += p.rowCount();
            }
            return new OnnxRowSource(out, segments);
        }
    }

    int rank() {
        return shape.length;
    }

    long dim(int i) {
        return shape[i];
    }

    /** The first stored tensor whose rows these are. */
    private Tensor firstSource() {
        return segments.get(0).source;
    }

    /** True when every row comes from one stored tensor. */
    boolean oneSource() {
        return segments.stream().allMatch(s -> s.source == segments.get(0).source);
    }

    /** Where the value's rows {@code [first, first + count)} are stored, or null when they span more than one run. */
    Place place(long first, long count) {
        for (Segment s : segments) {
            if (first >= s.first && first + count <= s.first + s.rows) return new Place(s.source, s.sourceRow + (first - s.first));
        }
        return null;
    }

    /** Rows of the same dtype and length, so that one view type reads either. */
    private boolean sameKind(OnnxRowSource o) {
        return firstSource().dtype() == o.firstSource().dtype() && columns() == o.columns();
    }

    private long columns() {
        return shape[shape.length - 1];
    }

    /** The same rows under another shape with the same last axis, or null. */
    private OnnxRowSource reshaped(long[] to) {
        if (to == null || to.length == 0 || to[to.length - 1] != columns() || product(to) != product(shape)) return null;
        return new OnnxRowSource(to, segments);
    }

    /** {@code Slice} along one row axis with step 1 (opset 10+ inputs, or opset 1-9 attributes). */
    private OnnxRowSource sliced(OnnxNode node, Map<String, Tensor> tensors) {
        boolean inputs = node.inputs().size() > 1;
        long[] starts = inputs ? longs(tensors.get(node.input(1))) : node.intsAttribute("starts");
        long[] ends = inputs ? longs(tensors.get(node.input(2))) : node.intsAttribute("ends");
        long[] axes = inputs ? (node.input(3).isEmpty() ? null : longs(tensors.get(node.input(3)))) : node.intsAttribute("axes");
        long[] steps = inputs && !node.input(4).isEmpty() ? longs(tensors.get(node.input(4))) : null;
        if (starts == null || ends == null || starts.length != 1 || ends.length != 1) return null;
        if (axes != null && axes.length == 0 && !inputs) axes = null;
        if ((axes != null && axes.length != 1) || (steps != null && (steps.length != 1 || steps[0] != 1))) return null;
        int axis = rowAxis(axes == null ? 0 : axes[0]);
        if (axis < 0) return null;
        long size = shape[axis];
        long from = clamp(starts[0] < 0 ? starts[0] + size : starts[0], size);
        long to = clamp(ends[0] < 0 ? ends[0] + size : ends[0], size);
        if (to <= from) return null;
        long unit = rowsPerIndex(axis);
        long[] out = shape.clone();
        out[axis] = to - from;
        return new OnnxRowSource(out, rows(from * unit, (to - from) * unit, 0));
    }

    /** {@code axis} (negative from the end) when it indexes runs of whole rows: before the last, every axis before it 1; else -1. */
    private int rowAxis(long axis) {
        long a = axis < 0 ? axis + shape.length : axis;
        if (a < 0 || a >= shape.length - 1) return -1;
        for (int i = 0; i < a; i++) if (shape[i] != 1) return -1;
        return (int) a;
    }

    private long rowsPerIndex(int axis) {
        long n = 1;
        for (int i = axis + 1; i < shape.length - 1; i++) n *= shape[i];
        return n;
    }

    private long rowCount() {
        long n = 0;
        for (Segment s : segments) n += s.rows;
        return n;
    }

    /** The segments covering the value's rows {@code [from, from + count)}, renumbered from {@code at}. */
    private List<Segment> rows(long from, long count, long at) {
        List<Segment> out = new ArrayList<>();
        long end = from + count;
        for (Segment s : segments) {
            long lo = Math.max(from, s.first);
            long hi = Math.min(end, s.first + s.rows);
            if (lo < hi) out.add(new Segment(at + lo - from, s.source, s.sourceRow + lo - s.first, hi - lo));
        }
        return out;
    }

    /** The output shape of {@code Unsqueeze}/{@code Squeeze}/{@code Reshape} on {@code in}, or null when not constant. */
    private static long[] outputShape(OnnxNode node, long[] in, Map<String, Tensor> tensors) {
        String op = node.opType();
        if (op.equals("Reshape")) {
            long[] target = longs(tensors.get(node.input(1)));
            if (target == null) return null;
            long[] out = target.clone();
            int infer = -1;
            long known = 1;
            for (int i = 0; i < out.length; i++) {
                if (out[i] == 0 && node.intAttribute("allowzero", 0) == 0) out[i] = i < in.length ? in[i] : -2;
                if (out[i] == -1 && infer < 0) infer = i;
                else if (out[i] < 0) return null;
                else known *= out[i];
            }
            if (infer >= 0) {
                if (known == 0 || product(in) % known != 0) return null;
                out[infer] = product(in) / known;
            }
            return out;
        }
        return OnnxShapes.squeezed(node, in, tensors);
    }

    /** A small integer tensor's values, or null. */
    private static long[] longs(Tensor t) {
        return t == null ? null : t.smallInts(64);
    }

    private static long clamp(long v, long size) {
        return Math.max(0, Math.min(size, v));
    }

    private static long product(long[] dims) {
        long n = 1;
        for (long d : dims) n = Math.multiplyExact(n, d);
        return n;
    }
}
