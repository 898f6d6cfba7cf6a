package dev.sparseprof.cli;

import dev.sparseprof.model.GemmLayer;
import dev.sparseprof.model.LayerKind;
import dev.sparseprof.model.Model;
import dev.sparseprof.report.TextTable;
import dev.sparseprof.sparse.Format;
import dev.sparseprof.sparse.Formats;
import dev.sparseprof.sparse.StorageCost;
import dev.sparseprof.sparse.stats.MatrixStats;
import dev.sparseprof.sparse.stats.ScanOptions;
import dev.sparseprof.util.DType;
import dev.sparseprof.util.JsonWriter;
import dev.sparseprof.util.SparseprofException;
import dev.sparseprof.util.Units;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code sparseprof formats [MODEL]}: the exact bytes of every GEMM layer in each sparse format
 * (values, indices, metadata, padding) for one value dtype, and the compression ratio against dense
 * storage of the same dtype, metadata included; sized from one statistics scan per layer, without
 * building the formats. An N:M layout is "n/a" for a layer that does not obey its pattern.
 */
@Command(name = "formats", mixinStandardHelpOptions = true,
        description = "Bytes of each sparse format per layer (values, indices, metadata) and the compression ratio vs dense.")
final class FormatsCommand implements Callable<Integer> {
    @Mixin CommonOptions common;
    @Spec CommandSpec spec;

    @Mixin ModelArgument model;
    @Mixin TableOptions tableOptions;

    @Option(names = "--dtype", paramLabel = "D",
            description = "Value type: fp32, fp16, bf16, int8, uint8 or fp8. Default: the weights' stored dtype, fp32 for fp32 or wider weights.")
    String dtype;

    @Option(names = "--json", paramLabel = "FILE|-", description = "Write the byte counts as JSON ('-': standard output, alone).")
    String json;

    private static final Set<DType> VALUE_TYPES = EnumSet.of(DType.F32, DType.F16, DType.BF16, DType.I8, DType.U8,
            DType.F8_E4M3, DType.F8_E5M2);

    /** One layer in one format: its cost, or null when the format cannot hold the layer. */
    record Cell(GemmLayer layer, Format format, StorageCost cost) {}

    @Override
    public Integer call() {
        DType given = dtype == null ? null : DType.parse(dtype);
        if (given != null && !VALUE_TYPES.contains(given)) {
            throw new SparseprofException("--dtype must be fp32, fp16, bf16, int8, uint8, fp8_e4m3 or fp8_e5m2, got '" + dtype + "'");
        }
        Outputs.checkFolder("--json", json);
        PrintWriter out = spec.commandLine().getOut();
        List<Format> formats = Formats.defaults();
        try (Model m = model.open()) {
            DType stored = m.storedWeightDType();
            DType valueType = given != null ? given : stored != null ? stored : DType.F32;
            String why = given != null ? null : stored != null ? ", the dtype the weights are stored in (--dtype overrides)"
                    : ", the weights are stored in fp32 or wider (--dtype overrides)";
            List<MatrixStats> stats = ProfileCommand.scan(m, "formats", Formats.scanOptionsFor(formats, ScanOptions.DEFAULT));
            List<GemmLayer> layers = new ArrayList<>();
            List<List<Cell>> rows = new ArrayList<>();
            for (int i = 0; i < m.layers().size(); i++) {
                GemmLayer l = m.layers().get(i);
                if (l.kind() == LayerKind.EMBEDDING_GATHER) continue;
                List<Cell> row = new ArrayList<>();
                for (Format f : formats) row.add(new Cell(l, f, f.canHold(stats.get(i)) ? f.cost(stats.get(i), valueType) : null));
                layers.add(l);
                rows.add(row);
            }
            if (!Outputs.jsonOnStdout(json)) out.print(table(m, valueType, formats, rows, tableOptions.wide));
            Outputs.write(json, () -> json(m, valueType, formats, rows), out);
            if (why != null) spec.commandLine().getErr().println("formats: value type " + valueType.label() + why);
        }
        return Main.EXIT_OK;
    }

    private static String table(Model m, DType dtype, List<Format> formats, List<List<Cell>> rows, boolean wide) {
        String[] header = new String[formats.size() + 2];
        header[0] = "layer";
        header[1] = "dense";
        for (int i = 0; i < formats.size(); i++) header[i + 2] = formats.get(i).name();
        TextTable t = new TextTable(header);
        int[] right = new int[header.length - 1];
        for (int i = 0; i < right.length; i++) right[i] = i + 1;
        t.rightAlign(right);
        // To fit 120 columns, the formats that tell least beside their neighbours go first: csc
        // (csr's twin), ell and sell (csr plus padding), 1:2 (2:4's tf32 twin).
        for (int i = 0; i < formats.size(); i++) {
            String n = formats.get(i).name();
            if (n.equals("csc") || n.equals("ell") || n.startsWith("sell-") || n.equals("1:2")) t.optional(i + 2);
        }
        for (List<Cell> row : rows) {
            Object[] cells = new Object[header.length];
            cells[0] = row.get(0).layer().name();
            cells[1] = Units.formatBytes(denseBytes(row.get(0).layer(), dtype));
            for (int i = 0; i < row.size(); i++) cells[i + 2] = row.get(i).cost() == null ? "n/a" : ratio(row.get(i).cost().compressionRatio());
            t.row(cells);
        }
        t.rule();
        Object[] total = new Object[header.length];
        total[0] = "total (" + rows.size() + " layers)";
        long dense = 0;
        for (List<Cell> row : rows) dense += denseBytes(row.get(0).layer(), dtype);
        total[1] = Units.formatBytes(dense);
        for (int i = 0; i < formats.size(); i++) {
            StorageCost c = total(rows, i, dtype, dense);
            total[i + 2] = c == null ? "n/a" : ratio(c.compressionRatio());
        }
        t.row(total);
        StringBuilder sb = new StringBuilder();
        sb.append(TextTable.wrap(m.source() + ": storage with " + dtype.label() + " values; each cell is the compression ratio dense/format, metadata included"));
        sb.append(t.render(wide));
        double stored = storedBytes(rows);
        if (Math.abs(stored - dense) > 0.5) {
            long params = rows.stream().mapToLong(r -> r.get(0).layer().params()).sum();
            sb.append(TextTable.wrap(String.format(Locale.ROOT, "as stored in the file: %s, %.3g bits per weight with their scales; "
                    + "dense %s / stored = %s", Units.formatBytes(Math.round(stored)), 8 * stored / params, dtype.label(), ratio(dense / stored))));
        }
        List<String> na = new ArrayList<>();
        for (int i = 0; i < formats.size(); i++) {
            for (List<Cell> row : rows) {
                if (row.get(i).cost() == null) {
                    na.add(formats.get(i).name());
                    break;
                }
            }
        }
        if (!na.isEmpty()) sb.append(TextTable.wrap("n/a: the layer's weights do not follow the pattern " + String.join(", ", na)
                + " stores (prune --nm N:M makes them)"));
        sb.append("\ntotals by part (values + indices + metadata + padding):\n");
        TextTable parts = new TextTable("format", "values", "indices", "metadata", "padding", "total", "ratio");
        parts.rightAlign(1, 2, 3, 4, 5, 6);
        for (int i = 0; i < formats.size(); i++) {
            StorageCost c = total(rows, i, dtype, dense);
            if (c == null) {
                parts.row(formats.get(i).name(), notApplicable(formats.get(i)), "", "", "", "", "");
            } else {
                parts.row(formats.get(i).name(), Units.formatBytes(c.valueBytes()), Units.formatBytes(c.indexBytes()),
                        Units.formatBytes(c.metadataBytes()), Units.formatBytes(c.paddingBytes()), Units.formatBytes(c.totalBytes()),
                        ratio(c.compressionRatio()));
            }
        }
        sb.append(parts.render());
        return sb.toString();
    }

    /** The sum over all layers of format {@code index}, or null when some layer cannot be held in it. */
    private static StorageCost total(List<List<Cell>> rows, int index, DType dtype, long denseBytes) {
        long values = 0;
        long indices = 0;
        long metadata = 0;
        long padding = 0;
        String name = null;
        for (List<Cell> row : rows) {
            StorageCost c = row.get(index).cost();
            if (c == null) return null;
            name = c.format();
            values += c.valueBytes();
            indices += c.indexBytes();
            metadata += c.metadataBytes();
            padding += c.paddingBytes();
        }
        return name == null ? null : new StorageCost(name, dtype, denseBytes, values, indices, metadata, padding);
    }

    private static String notApplicable(Format f) {
        return "n/a (not " + f.name() + ")";
    }

    private static long denseBytes(GemmLayer l, DType dtype) {
        return l.params() * dtype.sizeBytes();
    }

    /** The weights' bytes as the file stores them: each layer's encoding ({@code GemmLayer.storedBitsPerWeight}). */
    private static double storedBytes(List<List<Cell>> rows) {
        double bytes = 0;
        for (List<Cell> row : rows) bytes += row.get(0).layer().params() * row.get(0).layer().storedBitsPerWeight() / 8;
        return bytes;
    }

    private static String ratio(double r) {
        return Double.isFinite(r) ? String.format(Locale.ROOT, "%.2fx", r) : "inf";
    }

    private static String json(Model m, DType dtype, List<Format> formats, List<List<Cell>> rows) {
        JsonWriter w = new JsonWriter().beginObject();
        w.name("model").beginObject().field("source", m.source()).field("format", m.format()).endObject();
        w.field("dtype", dtype.label());
        w.name("formats").beginArray();
        for (Format f : formats) w.value(f.name());
        w.endArray();
        w.name("layers").beginArray();
        long dense = 0;
        for (List<Cell> row : rows) {
            GemmLayer l = row.get(0).layer();
            dense += denseBytes(l, dtype);
            w.beginObject().field("name", l.name()).field("kind", ProfileCommand.kindLabel(l.kind()));
            w.name("shape").beginObject().field("rows", l.rows()).field("cols", l.cols()).endObject();
            w.field("denseBytes", denseBytes(l, dtype)).field("storedBytes", l.params() * l.storedBitsPerWeight() / 8);
            w.name("formats").beginObject();
            for (Cell c : row) {
                w.name(c.format().name());
                cost(w, c.cost(), c.format());
            }
            w.endObject().endObject();
        }
        w.endArray();
        w.name("totals").beginObject().field("denseBytes", dense).field("storedBytes", storedBytes(rows)).name("formats").beginObject();
        for (int i = 0; i < formats.size(); i++) {
            w.name(formats.get(i).name());
            cost(w, total(rows, i, dtype, dense), formats.get(i));
        }
        w.endObject().endObject();
        return w.endObject().toString();
    }

    private static void cost(JsonWriter w, StorageCost c, Format f) {
        if (c == null) {
            w.beginObject().field("applicable", false).field("reason", "not " + f.name()).endObject();
            return;
        }
        w.beginObject().field("applicable", true).field("valueBytes", c.valueBytes()).field("indexBytes", c.indexBytes())
                .field("metadataBytes", c.metadataBytes()).field("paddingBytes", c.paddingBytes())
                .field("totalBytes", c.totalBytes()).field("compressionRatio", c.compressionRatio()).endObject();
    }
}
