package dev.sparseprof.sparse;

import dev.sparseprof.sparse.stats.BlockShape;
import dev.sparseprof.sparse.stats.NmPattern;
import dev.sparseprof.sparse.stats.ScanOptions;
import dev.sparseprof.util.DType;
import dev.sparseprof.util.SparseprofException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The registry of formats by name: an explicit map of the fixed names and of the parameterized
 * families ({@code bsrRxC}, {@code sell-C-sigma}), listable for the CLI.
 */
public final class Formats {
    private Formats() {}

    /** Bits of 2:4 / 1:2 metadata per group: PTX ISA "Sparse matrix storage" (hardware-facts.md §2). */
    private static final int AMPERE_METADATA_BITS = 4;

    private static final Map<String, Format> FIXED = fixed();

    private record Family(Pattern pattern, String template, Function<Matcher, Format> factory) {}

    private static final List<Family> FAMILIES = List.of(
            new Family(Pattern.compile("bsr(\\d{1,6})x(\\d{1,6})"), "bsrRxC (e.g. bsr4x4)",
                    m -> new Format.Bsr(new BlockShape(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))))),
            new Family(Pattern.compile("sell-(\\d{1,6})-(\\d{1,9})"), "sell-C-sigma (e.g. sell-32-256)",
                    m -> new Format.Sell(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)))));

    private static Map<String, Format> fixed() {
        Map<String, Format> map = new LinkedHashMap<>();
        map.put("csr", Format.Csr.INSTANCE);
        map.put("csc", Format.Csc.INSTANCE);
        map.put("coo", Format.Coo.INSTANCE);
        map.put("ell", Format.Ell.INSTANCE);
        map.put("2:4", new Format.Nm(NmPattern.TWO_FOUR, AMPERE_METADATA_BITS));
        map.put("1:2", new Format.Nm(NmPattern.ONE_TWO, AMPERE_METADATA_BITS));
        map.put("bitmask", Format.Bitmask.INSTANCE);
        return Collections.unmodifiableMap(map);
    }

    /** The format named {@code name}; an error listing the known names otherwise. */
    public static Format parse(String name) {
        String key = name.trim().toLowerCase(Locale.ROOT);
        Format f = FIXED.get(key);
        if (f != null) return f;
        for (Family family : FAMILIES) {
            Matcher m = family.pattern().matcher(key);
            if (m.matches()) return family.factory().apply(m);
        }
        throw new SparseprofException("unknown format '" + name + "' (known: " + String.join(", ", names()) + ")");
    }

    /** Parses a comma-separated list such as {@code csr,bsr4x4,2:4}. */
    public static List<Format> parseList(String names) {
        List<Format> out = new ArrayList<>();
        for (String n : names.split(",")) if (!n.isBlank()) out.add(parse(n));
        if (out.isEmpty()) throw new SparseprofException("no format named in '" + names + "'");
        return out;
    }

    /** The fixed names, then the family templates, for help texts and errors. */
    public static List<String> names() {
        List<String> out = new ArrayList<>(FIXED.keySet());
        for (Family family : FAMILIES) out.add(family.template());
        return out;
    }

    /** The formats the {@code formats} command shows by default. */
    public static List<Format> defaults() {
        return List.of(parse("csr"), parse("csc"), parse("coo"), parse("bsr4x4"), parse("bsr16x16"), parse("ell"),
                parse("sell-32-256"), parse("2:4"), parse("1:2"), parse("bitmask"));
    }

    /** The Ampere structured layout the tensor cores use for {@code dtype}: 1:2 for 32-bit types, else 2:4. */
    public static Format ampereFor(DType dtype) {
        return dtype.bits() == 32 ? parse("1:2") : parse("2:4");
    }

    /**
     * The scan options that let {@link Format#cost} size all of {@code formats} from statistics:
     * {@code base} plus the block shapes of BSR formats and the patterns of N:M formats it lacks.
     */
    public static ScanOptions scanOptionsFor(List<Format> formats, ScanOptions base) {
        List<BlockShape> blocks = new ArrayList<>(base.blocks());
        List<NmPattern> patterns = new ArrayList<>(base.patterns());
        for (Format f : formats) {
            if (f instanceof Format.Bsr bsr && !blocks.contains(bsr.shape())) blocks.add(bsr.shape());
            if (f instanceof Format.Nm nm && !patterns.contains(nm.pattern())) patterns.add(nm.pattern());
        }
        return new ScanOptions(patterns, blocks, base.columnCounts(), base.threads());
    }

    /** {@code m} in {@code target}, exactly. */
    public static SparseMatrix convert(SparseMatrix m, Format target) {
        return target.build(m.toCsr());
    }
}
