package dev.sparseprof.model;

import dev.sparseprof.util.DType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.IntUnaryOperator;
import java.util.regex.Pattern;

/**
 * Finds the GEMM layers of an ONNX graph from the nodes that consume weights:
 * <ul>
 * <li>{@code MatMul(X, W)} and {@code MatMulInteger}: W is stored {@code [in, out]}, the transpose of
 * A, so rows = out features and the view reads transposed;</li>
 * <li>{@code Gemm}: {@code transB=1} stores B as {@code [out, in]} (row-major A), else {@code [in, out]};</li>
 * <li>{@code Conv}/{@code ConvInteger}: {@code [out, in/groups, kh, kw]} is im2col's
 * {@code [out, in/groups·kh·kw]} as stored, in {@code group} stacked GEMMs of {@code out/group}
 * rows (flagged depthwise when each group has one input channel, K = kh·kw); N per sample = output
 * pixels when the output shape is known (from {@code value_info} or {@link OnnxShapes}), else 1;</li>
 * <li>{@code ConvTranspose}: {@code [C_in, C_out/g, kh, kw]} is, per group, the GEMM
 * {@code A[(c_out, i, j), c_in] = W[c_in, c_out, i, j]} ({@code C_out/g·kh·kw x C_in/g}) times the
 * input {@code [C_in/g, in pixels]}, followed by col2im: N per sample = input pixels;</li>
 * <li>{@code Einsum} with a 2-D weight whose one index is contracted with the other operand and the
 * other kept in the output: {@code [out, in]} or {@code [in, out]} by the equation;</li>
 * <li>{@code LSTM}, {@code GRU}, {@code RNN}: {@code W [dirs, gates·H, I]} and {@code R [dirs, gates·H, H]}
 * give one {@code H x I} (W) and one {@code H x H} (R) layer per direction and gate
 * (LSTM i, o, f, c; GRU z, r, h); N per sample = sequence length when known;</li>
 * <li>{@code Gather} on a 2-D float or quantized weight: an embedding, {@link LayerKind#EMBEDDING_GATHER}.</li>
 * <li>onnxruntime's forms: the QDQ form (an integer weight through {@code DequantizeLinear}),
 * {@code QLinearMatMul}, {@code QLinearConv} and {@code QGemm} (weight input 3), {@code MatMulNBits}
 * ({@link NBitsMatrix}), and its fused {@code Attention} (packed QKV), {@code FusedMatMul} and
 * {@code EmbedLayerNormalization} (three tables).</li>
 * </ul>
 * A weight may also reach MatMul/Gemm through a {@code Transpose}, and a recurrent op through row
 * moves of stored tensors ({@link OnnxRowSource}).
 * A weight consumed by several GEMMs is listed once, at the first; one gathered as an embedding and
 * multiplied by a GEMM (a tied output projection) is listed as both. Quantized weights
 * take their scale and zero point from a {@code DequantizeLinear} applied to them, from
 * MatMulInteger's {@code b_zero_point} input, or by the ONNX Runtime naming convention
 * ({@code W_quantized}, {@code W_scale}, {@code W_zero_point}); they are also put into the model's
 * {@link Tensor} when one zero point serves the whole tensor. {@code tensors} is updated in place.
 */
final class OnnxLayers {
    private final String source;
    private final OnnxGraph graph;
    private final Map<String, Tensor> tensors;
    private final Map<String, long[]> shapes;
    private final Map<String, OnnxNode> dequantizers = new HashMap<>();
    private final Map<String, OnnxNode> producers = new HashMap<>();
    /** The stored integer tensor behind each {@code DequantizeLinear} output ({@link OnnxGraph#dequantized}). */
    private final Map<String, Tensor> dequantized;
    /** Weight ops seen but not read, with why ({@code onnx.skipped}). */
    private final List<String> skipped = new ArrayList<>();

    private OnnxLayers(String source, OnnxGraph graph, Map<String, Tensor> tensors, Map<String, long[]> inputShapes) {
        this.source = source;
        this.graph = graph;
        this.tensors = tensors;
        this.shapes = OnnxShapes.infer(source, graph, tensors, inputShapes);
        this.dequantized = graph.dequantized(tensors);
        for (OnnxNode n : graph.nodes()) {
            if (n.opType().equals("DequantizeLinear")) dequantizers.putIfAbsent(n.input(0), n);
            for (String out : n.outputs()) producers.putIfAbsent(out, n);
        }
    }

    /** The layers; {@code metadata} gets an {@code onnx.skipped} note naming weight ops seen but not read. */
    static List<GemmLayer> find(String source, OnnxGraph graph, Map<String, Tensor> tensors, Map<String, long[]> inputShapes,
                                Map<String, String> metadata) {
        OnnxLayers found = new OnnxLayers(source, graph, tensors, inputShapes);
        List<GemmLayer> layers = found.find();
        if (!found.skipped.isEmpty()) {
            metadata.put("onnx.skipped", found.skipped.size() + " weight op(s) not read, left out of the layers: "
                    + String.join(", ", found.skipped.subList(0, Math.min(3, found.skipped.size()))) + (found.skipped.size() > 3 ? ", ..." : ""));
        }
        return layers;
    }

    private List<GemmLayer> find() {
        List<GemmLayer> layers = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (OnnxNode node : graph.nodes()) {
            Set<String> fromThisNode = new HashSet<>();
            for (GemmLayer layer : layersOf(node)) {
                // a weight consumed by several GEMMs (shared layers) is listed at its first GEMM only; a tied
                // embedding, gathered and then multiplied as the output projection, is listed as both
                String use = layer.tensorName() + (layer.kind() == LayerKind.EMBEDDING_GATHER ? " gather" : " gemm");
                if (!fromThisNode.contains(use) && !seen.add(use)) continue;
                fromThisNode.add(use);
                layers.add(layer);
            }
        }
        return layers;
    }

    private List<GemmLayer> layersOf(OnnxNode node) {
        return switch (node.opType()) {
            case "MatMul", "MatMulInteger" -> one(matMul(node, 1, 3));
            case "QLinearMatMul" -> one(matMul(node, 3, 5));
            case "Gemm" -> one(gemm(node, 1, -1));
            case "QGemm" -> one(gemm(node, 3, 5));
            case "Conv", "ConvInteger" -> one(conv(node, 1, 3));
            case "QLinearConv" -> one(conv(node, 3, 5));
            case "ConvTranspose" -> one(convTranspose(node));
            case "Einsum" -> one(einsum(node));
            case "LSTM" -> recurrent(node, new String[] {"i", "o", "f", "c"});
            case "GRU" -> recurrent(node, new String[] {"z", "r", "h"});
            case "RNN" -> recurrent(node, new String[] {""});
            case "Gather" -> one(gather(node, 0));
            // onnxruntime's fused transformer ops (its optimizer's output for BERT-family models):
            // Attention's packed QKV weight [hidden_in, 3·hidden] multiplies like a MatMul weight, FusedMatMul
            // is a Gemm without bias, EmbedLayerNormalization gathers from three tables
            case "Attention" -> one(matMul(node, 1, -1));
            case "FusedMatMul" -> one(gemm(node, 1, -1));
            case "EmbedLayerNormalization" -> {
                List<GemmLayer> tables = new ArrayList<>();
                for (int i = 2; i <= 4; i++) {
                    GemmLayer table = gather(node, i);
                    if (table != null) tables.add(table);
                }
                yield tables;
            }
            case "MatMulNBits" -> one(nBits(node));
            default -> List.of();
        };
    }

    /**
     * {@code com.microsoft.MatMulNBits(A, B, scales[, zero_points[, g_idx[, bias]]])}, attributes K, N,
     * bits, block_size: {@link NBitsMatrix}. Its stored dtype is uint8: sparseprof prices 2- and
     * 4-bit codes as 8-bit. A weight reordered by {@code g_idx} (deprecated act-order) is named in
     * {@code onnx.skipped} instead.
     */
    private GemmLayer nBits(OnnxNode node) {
        Tensor b = tensors.get(node.input(1));
        Tensor scales = tensors.get(node.input(2));
        if (b == null || scales == null || b.dtype() != DType.U8 || !scales.dtype().isFloatingPoint()) return null;
        if (!node.input(4).isEmpty()) {
            skipped.add("MatMulNBits '" + node.displayName() + "' (g_idx)");
            return null;
        }
        Tensor zeros = node.input(3).isEmpty() ? null : tensors.get(node.input(3));
        if (!node.input(3).isEmpty() && zeros == null) return null;
        long k = node.intAttribute("K", -1);
        long n = node.intAttribute("N", -1);
        if (k <= 0 || n <= 0 || k > Integer.MAX_VALUE || n > Integer.MAX_VALUE) throw fault(node, "K " + k + " and N " + n + " must be positive ints");
        NBitsMatrix view;
        try {
            view = new NBitsMatrix(b, scales, zeros, (int) n, (int) k, (int) node.intAttribute("bits", 4), (int) node.intAttribute("block_size", -1));
        } catch (IllegalArgumentException e) {
            throw fault(node, e.getMessage());
        }
        String base = b.name().replaceFirst("_Q[0-9]+$", ""); // onnxruntime's quantizer names B after the float weight: W_Q4
        return new GemmLayer(layerName(node, base), b.name(), LayerKind.LINEAR, (int) n, (int) k, 1, view, 1, false, DType.U8);
    }

    private static List<GemmLayer> one(GemmLayer layer) {
        return layer == null ? List.of() : List.of(layer);
    }

    /** MatMul-like: the weight at input {@code in} (1; QLinearMatMul's 3), its zero point at {@code zeroPoint}. */
    private GemmLayer matMul(OnnxNode node, int in, int zeroPoint) {
        Tensor b = weight(node.input(in), 2);
        if (b != null) {
            // Y[tokens, out] = X[tokens, in] · W[in, out]: A = W^T.
            TensorMatrix view = TensorMatrix.transposed(b, dim(b, 1), dim(b, 0));
            return layer(node, b, LayerKind.LINEAR, quantized(node, b, view, zeroPoint), 1);
        }
        Tensor w = transposedWeight(node.input(in));
        if (w != null) {
            // Y = X · Transpose(W[out, in]), PyTorch's Linear exported without constant folding: A = W as stored.
            return layer(node, w, LayerKind.LINEAR, quantized(node, w, TensorMatrix.rowMajor(w, dim(w, 0), dim(w, 1)), zeroPoint), 1);
        }
        if (in != 1) return null;
        Tensor a = weight(node.input(0), 2);
        if (a == null) return null;
        // Y = W[out, in] · X[in, N]: W is A as stored.
        return layer(node, a, LayerKind.LINEAR, quantized(node, a, TensorMatrix.rowMajor(a, dim(a, 0), dim(a, 1)), 2), 1);
    }

    /** Gemm-like: B at input {@code in} (1; com.microsoft QGemm's 3), its zero point at {@code zeroPoint} (-1: none). */
    private GemmLayer gemm(OnnxNode node, int in, int zeroPoint) {
        Tensor b = weight(node.input(in), 2);
        boolean transB = node.intAttribute("transB", 0) != 0;
        if (b != null) {
            TensorMatrix view = transB ? TensorMatrix.rowMajor(b, dim(b, 0), dim(b, 1)) : TensorMatrix.transposed(b, dim(b, 1), dim(b, 0));
            return layer(node, b, LayerKind.LINEAR, quantized(node, b, view, zeroPoint), 1);
        }
        Tensor w = transposedWeight(node.input(in));
        if (w != null) {
            // B = Transpose(W): op(B) is W^T without transB (A = W as stored), W with it (A = W^T)
            TensorMatrix view = transB ? TensorMatrix.transposed(w, dim(w, 1), dim(w, 0)) : TensorMatrix.rowMajor(w, dim(w, 0), dim(w, 1));
            return layer(node, w, LayerKind.LINEAR, quantized(node, w, view, zeroPoint), 1);
        }
        if (in != 1) return null;
        Tensor a = weight(node.input(0), 2);
        if (a == null) return null;
        boolean transA = node.intAttribute("transA", 0) != 0;
        TensorMatrix view = transA ? TensorMatrix.transposed(a, dim(a, 1), dim(a, 0)) : TensorMatrix.rowMajor(a, dim(a, 0), dim(a, 1));
        return layer(node, a, LayerKind.LINEAR, quantized(node, a, view, -1), 1);
    }

    /** Conv-like: the weight at input {@code in} (1; QLinearConv's 3), its zero point at {@code zeroPoint}. */
    private GemmLayer conv(OnnxNode node, int weightInput, int zeroPoint) {
        Tensor w = weight(node.input(weightInput), -1);
        if (w == null || w.rank() < 3) return null;
        int groups = groups(node, w, w.dim(0), "output channels");
        checkKernel(node, w);
        long[] in = shapes.get(node.input(0));
        if (OnnxShapes.isStatic(in) && in.length == w.rank() && in[1] != w.dim(1) * groups) {
            throw fault(node, "weight " + shapeText(w) + " with group " + groups + " takes " + w.dim(1) * groups
                    + " input channels, the input " + OnnxShapes.dimsText(in) + " has " + in[1]);
        }
        int rows = dim(w, 0);
        long cols = w.elementCount() / Math.max(1, w.dim(0));
        if (cols > Integer.MAX_VALUE) return null;
        long pixels = pixels(shapes.get(node.outputs().isEmpty() ? "" : node.outputs().get(0)), w.rank());
        TensorMatrix view = TensorMatrix.rowMajor(w, rows, (int) cols);
        TensorMatrix q = quantized(node, w, view, zeroPoint);
        return new GemmLayer(layerName(node, w.name()), w.name(), LayerKind.CONV, q.rows(), q.cols(), pixels, q,
                groups, groups > 1 && w.dim(1) == 1, w.dtype());
    }

    /** See the class comment: per group {@code A = [C_out/g·k, C_in/g]}, read from {@code [C_in, C_out/g, k...]}. */
    private GemmLayer convTranspose(OnnxNode node) {
        Tensor w = weight(node.input(1), -1);
        if (w == null || w.rank() < 3) return null;
        int groups = groups(node, w, w.dim(0), "input channels");
        checkKernel(node, w);
        long[] in = shapes.get(node.input(0));
        if (OnnxShapes.isStatic(in) && in.length == w.rank() && in[1] != w.dim(0)) {
            throw fault(node, "weight " + shapeText(w) + " is [C_in, C_out/group, k...] for " + w.dim(0)
                    + " input channels, the input " + OnnxShapes.dimsText(in) + " has " + in[1]);
        }
        long kernel = w.elementCount() / (w.dim(0) * w.dim(1));
        long rowsPerGroup = w.dim(1) * kernel;
        long cols = w.dim(0) / groups;
        if (rowsPerGroup * groups > Integer.MAX_VALUE) return null;
        TensorMatrix view = TensorMatrix.groupedTransposed(w, groups, (int) rowsPerGroup, (int) cols, rowsPerGroup, cols * rowsPerGroup);
        // quantized per output channel (axis 1, C_out/group entries): row r of A is channel (r % rowsPerGroup) / kernel
        view = quantized(node, w, view, -1, (int) w.dim(1), r -> (int) ((r % rowsPerGroup) / kernel));
        long pixels = pixels(in, w.rank());
        return new GemmLayer(layerName(node, w.name()), w.name(), LayerKind.CONV, view.rows(), view.cols(), pixels, view,
                groups, groups > 1 && cols == 1, w.dtype());
    }

    private int groups(OnnxNode node, Tensor w, long channels, String what) {
        long g = node.intAttribute("group", 1);
        if (g <= 0 || g > Integer.MAX_VALUE || channels % g != 0) {
            throw fault(node, "weight " + shapeText(w) + " has " + channels + " " + what + ", not a multiple of group " + g);
        }
        return (int) g;
    }

    private void checkKernel(OnnxNode node, Tensor w) {
        long[] k = node.intsAttribute("kernel_shape");
        if (k.length == 0) return;
        long[] s = w.shape();
        boolean ok = k.length == s.length - 2;
        for (int i = 0; ok && i < k.length; i++) ok = k[i] == s[i + 2];
        if (!ok) throw fault(node, "weight " + shapeText(w) + " does not match kernel_shape " + OnnxShapes.dimsText(k));
    }

    /** The spatial size of an NC... shape, or 1 when it is unknown. */
    private static long pixels(long[] shape, int rank) {
        if (!OnnxShapes.isStatic(shape) || shape.length != rank) return 1;
        long p = 1;
        for (int i = 2; i < shape.length; i++) p *= shape[i];
        return p;
    }

    /** {@code Einsum} with a 2-D weight as one operand: a GEMM when one of its indices is summed over and the other kept. */
    private GemmLayer einsum(OnnxNode node) {
        String eq = node.stringAttribute("equation", "").replace(" ", "");
        int arrow = eq.indexOf("->");
        String[] terms = (arrow < 0 ? eq : eq.substring(0, arrow)).split(",", -1);
        if (terms.length != 2) return null;
        String output = arrow < 0 ? implicitOutput(terms) : eq.substring(arrow + 2);
        for (int side = 0; side < 2; side++) {
            Tensor w = weight(node.input(side), 2);
            String term = terms[side];
            if (w == null || term.length() != 2) continue;
            String other = terms[1 - side];
            char first = term.charAt(0);
            char second = term.charAt(1);
            boolean firstSummed = other.indexOf(first) >= 0 && output.indexOf(first) < 0;
            boolean secondSummed = other.indexOf(second) >= 0 && output.indexOf(second) < 0;
            boolean firstKept = output.indexOf(first) >= 0 && other.indexOf(first) < 0;
            boolean secondKept = output.indexOf(second) >= 0 && other.indexOf(second) < 0;
            if (secondSummed && firstKept) return layer(node, w, LayerKind.LINEAR, TensorMatrix.rowMajor(w, dim(w, 0), dim(w, 1)), 1);
            if (firstSummed && secondKept) return layer(node, w, LayerKind.LINEAR, TensorMatrix.transposed(w, dim(w, 1), dim(w, 0)), 1);
        }
        return null;
    }

    /** Einsum without {@code ->}: the indices that appear once, in alphabetical order. */
    private static String implicitOutput(String[] terms) {
        StringBuilder out = new StringBuilder();
        String all = String.join("", terms);
        for (char c = 'A'; c <= 'z'; c++) {
            int n = 0;
            for (int i = 0; i < all.length(); i++) if (all.charAt(i) == c) n++;
            if (n == 1) out.append(c);
        }
        return out.toString();
    }

    /**
     * LSTM/GRU/RNN: {@code W [dirs, gates·H, I]} (input 1), {@code R [dirs, gates·H, H]} (input 2); each
     * direction's gate is a row block of H rows. Dimensions that disagree with {@code hidden_size},
     * {@code direction} or the input's size are an error.
     */
    private List<GemmLayer> recurrent(OnnxNode node, String[] gates) {
        OnnxRowSource w = rows(node.input(1));
        OnnxRowSource r = rows(node.input(2));
        if (w == null && r == null) return List.of();
        String direction = node.stringAttribute("direction", "forward");
        int dirs = direction.equals("bidirectional") ? 2 : 1;
        long hidden = node.intAttribute("hidden_size", r != null && r.rank() == 3 ? r.dim(2) : w != null && w.rank() == 3 ? w.dim(1) / gates.length : -1);
        long[] x = shapes.get(node.input(0));
        long seq = OnnxShapes.isStatic(x) && x.length == 3 ? x[node.intAttribute("layout", 0) == 0 ? 0 : 1] : 1;
        List<GemmLayer> layers = new ArrayList<>();
        for (OnnxRowSource t : new OnnxRowSource[] {w, r}) {
            if (t == null) continue;
            boolean isW = t == w;
            String role = isW ? "W" : "R";
            if (t.rank() != 3 || t.dim(0) != dirs || t.dim(1) != gates.length * hidden || hidden <= 0 || (!isW && t.dim(2) != hidden)) {
                throw fault(node, role + " " + dimsText(t.shape()) + " does not match hidden_size " + hidden + ", direction " + direction
                        + " and " + gates.length + " gate(s): expected [" + dirs + ", " + gates.length * hidden + ", " + (isW ? "input_size" : hidden) + "]");
            }
            if (isW && OnnxShapes.isStatic(x) && x.length == 3 && x[2] != t.dim(2)) {
                throw fault(node, "W " + dimsText(t.shape()) + " takes input_size " + t.dim(2) + ", the input " + OnnxShapes.dimsText(x) + " has " + x[2]);
            }
            if (hidden > Integer.MAX_VALUE || t.dim(2) > Integer.MAX_VALUE) return List.of();
            OnnxRowSource.Place[] stored = new OnnxRowSource.Place[dirs * gates.length];
            for (int i = 0; i < stored.length; i++) stored[i] = t.place(i * hidden, hidden);
            if (Arrays.stream(stored).anyMatch(Objects::isNull)) continue; // a gate split over two stored runs: no one view of it
            boolean one = t.oneSource();
            for (int d = 0; d < dirs; d++) {
                for (int g = 0; g < gates.length; g++) {
                    OnnxRowSource.Place at = stored[d * gates.length + g];
                    String name = gateName(node, at.source().name(), role, dirs == 2 ? (d == 0 ? "forward" : "reverse") : "", one, gates[g]);
                    TensorMatrix view = TensorMatrix.rowMajorSlice(at.source(), at.row(), (int) hidden, (int) t.dim(2));
                    layers.add(new GemmLayer(name, at.source().name(), LayerKind.LINEAR, view.rows(), view.cols(), seq, view, 1, false, at.source().dtype()));
                }
            }
        }
        return layers;
    }

    /** An embedding table gathered from: the 2-D weight at input {@code in} (Gather's 0). */
    private GemmLayer gather(OnnxNode node, int in) {
        Tensor table = weight(node.input(in), 2);
        if (table == null) return null;
        TensorMatrix view = TensorMatrix.rowMajor(table, dim(table, 0), dim(table, 1));
        return layer(node, table, LayerKind.EMBEDDING_GATHER, quantized(node, table, view, -1), 1);
    }

    private ModelFormatException fault(OnnxNode node, String what) {
        return ModelFormatException.in(source, node.opType() + " '" + node.displayName() + "': " + what);
    }

    private static String shapeText(Tensor t) {
        return dimsText(t.shape());
    }

    private static String dimsText(long[] dims) {
        return Arrays.toString(dims).replace(" ", "");
    }

    /**
     * A recurrent gate layer's name: {@code lstm.W.forward.i} from one stored W (its own name, or the
     * node's with the role where anonymous); {@code gru.weight_ih_l0_reverse.z} where each direction
     * has its own tensor (PyTorch's names say role and direction).
     */
    private static String gateName(OnnxNode node, String tensorName, String role, String direction, boolean oneTensor, String gate) {
        String base = layerName(node, tensorName);
        boolean anonymous = !base.equals(tensorName);
        return base + (anonymous ? "." + role : "") + (!direction.isEmpty() && (oneTensor || anonymous) ? "." + direction : "")
                + (gate.isEmpty() ? "" : "." + gate);
    }

    /** The 2-D weight whose {@code Transpose} (perm absent or {@code [1, 0]}) is {@code name}, or null. */
    private Tensor transposedWeight(String name) {
        OnnxNode t = producers.get(name);
        if (t == null || !t.opType().equals("Transpose")) return null;
        long[] perm = t.intsAttribute("perm");
        if (perm.length != 0 && !(perm.length == 2 && perm[0] == 1 && perm[1] == 0)) return null;
        return weight(t.input(0), 2);
    }

    /**
     * A recurrent weight: a stored tensor, or whole-row moves of one ({@link OnnxRowSource}: PyTorch's
     * gate reorder where constant folding did not run); null when neither or not a GEMM type.
     */
    private OnnxRowSource rows(String name) {
        Tensor direct = weight(name, -1);
        if (direct != null) return OnnxRowSource.of(direct);
        if (tensors.containsKey(name)) return null;
        OnnxRowSource moved = OnnxRowSource.resolve(name, tensors, producers);
        if (moved == null) return null;
        for (OnnxRowSource.Segment s : moved.segments()) if (weight(s.source().name(), -1) == null) return null;
        return moved;
    }

    /** ONNX's float element types, as a {@code Cast}'s {@code to}: FLOAT, FLOAT16, DOUBLE, BFLOAT16. */
    private static final Set<Long> FLOAT_TYPES = Set.of(1L, 10L, 11L, 16L);

    /**
     * A weight tensor of this rank (-1: any) and a type a GEMM multiplies, or null: stored under
     * {@code name}, the integer tensor a {@code DequantizeLinear} turns into {@code name} (the QDQ
     * form of onnxruntime's {@code quantize_static}; its scale and zero point are that node's), or
     * the float tensor a {@code Cast} to a float type turns into {@code name}.
     */
    private Tensor weight(String name, int rank) {
        Tensor t = tensors.get(name);
        OnnxNode producer = t == null ? producers.get(name) : null;
        if (t == null) t = dequantized.get(name);
        if (producer != null && producer.opType().equals("Cast") && FLOAT_TYPES.contains(producer.intAttribute("to", 0))) {
            // a stored float weight cast to the op's float type (onnxruntime's float16 converter around blocked ops)
            Tensor stored = tensors.get(producer.input(0));
            if (stored != null && stored.dtype().isFloatingPoint()) t = stored;
        }
        if (t == null || (rank >= 0 && t.rank() != rank) || t.elementCount() == 0) return null;
        DType d = t.dtype();
        boolean ok = d.isFloatingPoint() || d == DType.I8 || d == DType.U8;
        if (!ok) return null;
        for (long dim : t.shape()) if (dim > Integer.MAX_VALUE) return null;
        return t;
    }

    /**
     * Attaches the quantization of an integer weight: {@code zeroPointInput} is the node's input
     * holding the weight's zero point (-1: none). A per-channel vector runs along the output
     * channels (MatMul's stored last axis, Conv's first), which are A's rows either way.
     */
    private TensorMatrix quantized(OnnxNode node, Tensor w, TensorMatrix view, int zeroPointInput) {
        return quantized(node, w, view, zeroPointInput, view.rows(), r -> r);
    }

    /**
     * {@link #quantized(OnnxNode, Tensor, TensorMatrix, int)} where the per-channel vectors have
     * {@code channels} entries and row r of A belongs to channel {@code channelOf(r)} (a ConvTranspose's
     * rows are (c_out, kernel position), its channels c_out).
     */
    private TensorMatrix quantized(OnnxNode node, Tensor w, TensorMatrix view, int zeroPointInput, int channels, IntUnaryOperator channelOf) {
        if (w.dtype().isFloatingPoint()) return view;
        String scaleName = null;
        String zeroName = null;
        OnnxNode dq = dequantizers.get(w.name());
        if (dq != null) {
            scaleName = dq.input(1);
            zeroName = dq.input(2);
        } else if (w.name().endsWith("_quantized")) {
            String base = w.name().substring(0, w.name().length() - "_quantized".length());
            scaleName = base + "_scale";
            zeroName = base + "_zero_point";
        }
        if (zeroPointInput >= 0 && !node.input(zeroPointInput).isEmpty()) zeroName = node.input(zeroPointInput);
        Tensor scale = scaleName == null ? null : tensors.get(scaleName);
        Tensor zero = zeroName == null ? null : tensors.get(zeroName);
        int rows = view.rows();
        if (!perChannel(scale, channels, true) || !perChannel(zero, channels, false) || (scale == null && zero == null)) return view;
        float[] scales = new float[rows];
        long[] zeros = new long[rows];
        for (int r = 0; r < rows; r++) {
            int c = channelOf.applyAsInt(r);
            scales[r] = scale == null ? 1.0f : scale.getFloat(scale.elementCount() == 1 ? 0 : c);
            zeros[r] = zero == null ? 0 : zero.rawLong(zero.elementCount() == 1 ? 0 : c);
        }
        carryInTensor(w, scales, zeros);
        return view.withRowQuantization(new RowQuantization(scales, zeros));
    }

    /**
     * Puts the quantization into the model's tensor too, when one zero point serves the whole
     * tensor, so that {@link Tensor#isZero} is exact: the scale as well when it is per tensor, else
     * 1 (per-channel values are the layer view's to decode).
     */
    private void carryInTensor(Tensor w, float[] scales, long[] zeros) {
        for (long z : zeros) if (z != zeros[0]) return;
        boolean perTensorScale = true;
        for (float f : scales) if (f != scales[0]) perTensorScale = false;
        tensors.put(w.name(), new Tensor(w.name(), w.dtype(), w.shape(), w.data(), perTensorScale ? scales[0] : 1.0, zeros[0]));
    }

    /** True when {@code t} is absent, a scalar or one value per channel (a float scale, an integer zero point). */
    private static boolean perChannel(Tensor t, int channels, boolean isScale) {
        if (t == null) return true;
        long n = t.elementCount();
        return (n == 1 || n == channels) && t.dtype().isFloatingPoint() == isScale;
    }

    private GemmLayer layer(OnnxNode node, Tensor w, LayerKind kind, TensorMatrix view, long columnsPerSample) {
        return new GemmLayer(layerName(node, w.name()), w.name(), kind, view.rows(), view.cols(), columnsPerSample, view, 1, false, w.dtype());
    }

    /**
     * The tensor's name when it means something, else the PyTorch module the consuming node came from
     * (a dynamo export's folded {@code val_N}), else the node's name.
     */
    static String layerName(OnnxNode node, String tensorName) {
        boolean anonymous = tensorName.isEmpty() || tensorName.startsWith("onnx::") || tensorName.chars().allMatch(Character::isDigit)
                || DYNAMO_VALUE.matcher(tensorName).matches();
        return !anonymous ? tensorName : !node.module().isEmpty() ? node.module() : node.displayName();
    }

    /** torch.onnx's dynamo exporter names the values it makes, folded constants among them, {@code val_N}. */
    private static final Pattern DYNAMO_VALUE = Pattern.compile("val_[0-9]+");

    private static int dim(Tensor t, int i) {
        return (int) t.dim(i);
    }
}
