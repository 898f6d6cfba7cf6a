package dev.sparseprof.cli;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Seeded, deterministic mutations of a valid input file: truncation at many offsets, byte flips,
 * little-endian integers overwritten with lying values (huge, negative, off by one), and for text
 * formats numbers replaced by hostile ones, control characters and newlines put into names, paths
 * turned into {@code ../} and absolute ones, deep nesting and unknown keys. The same seed gives the
 * same mutants, so a failure names a case that can be run again.
 */
final class Mutants {
    /** One mutated file: what was done (for the failure message) and its bytes. */
    record Mutant(String label, byte[] bytes) {}

    /** Values a length, count, dimension or offset may lie with. */
    private static final long[] LIES = {
        0, 1, -1, 0x7f, 0xff, 0x7fff_ffffL, 0x8000_0000L, 0xffff_ffffL, 1L << 32, 1L << 40, 1L << 62, Long.MAX_VALUE, Long.MIN_VALUE};
    /** Numbers a text may lie with. */
    private static final String[] TEXT_LIES = {
        "0", "-1", "99999999999999999999", "4294967297", "2147483648", "9223372036854775807", "1e308", "-1e308", "NaN", "1.5", "0x10"};
    /** What may be put into a name: line breaks, control characters, a terminal escape, the Unicode line separators. */
    private static final String[] NAME_JUNK = {"\n", "\r\n", "\u0000", "\u0007", "\u001b[2J", "\t", "\u2028", "\u0085", "\nat dev.sparseprof.Fake(Fake.java:1)"};
    private static final String[] HOSTILE_PATHS = {"../escape.bin", "../../../../etc/passwd", "/etc/passwd", "a/../../b.bin", "C:\\x.bin", "sub/\u0000.bin"};

    private final Random random;

    Mutants(long seed) {
        random = new Random(seed);
    }

    /** {@code count} truncations: the empty file, one byte, one byte short, and seeded offsets (half in the first 512 bytes). */
    List<Mutant> truncations(byte[] valid, int count) {
        List<Mutant> out = new ArrayList<>();
        int[] fixed = {0, 1, valid.length / 2, valid.length - 1};
        for (int at : fixed) out.add(truncated(valid, at));
        while (out.size() < count) out.add(truncated(valid, headerBiased(valid.length)));
        return out;
    }

    /** {@code count} files with one byte changed at a seeded offset (half in the first 512 bytes). */
    List<Mutant> byteFlips(byte[] valid, int count) {
        List<Mutant> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int at = headerBiased(valid.length);
            byte[] b = valid.clone();
            int mask = i % 2 == 0 ? 1 << random.nextInt(8) : 1 + random.nextInt(255);
            b[at] ^= (byte) mask;
            out.add(new Mutant("byte " + at + " xor 0x" + Integer.toHexString(mask), b));
        }
        return out;
    }

    /** {@code count} files with a 4- or 8-byte little-endian integer at a seeded offset replaced by a lie. */
    List<Mutant> lyingIntegers(byte[] valid, int count) {
        List<Mutant> out = new ArrayList<>();
        for (int i = 0; i < count && valid.length >= 8; i++) {
            int width = random.nextBoolean() ? 4 : 8;
            int at = Math.min(headerBiased(valid.length), valid.length - width);
            long lie = random.nextInt(4) == 0 ? littleEndian(valid, at, width) + 1 : LIES[random.nextInt(LIES.length)];
            out.add(new Mutant("u" + width * 8 + " at " + at + " = " + lie, withInteger(valid, at, width, lie)));
        }
        return out;
    }

    /** {@code count} texts with one number replaced by a hostile one. */
    List<Mutant> lyingNumbers(String valid, int count) {
        List<int[]> spans = spans(valid, Pattern.compile("-?\\d+(\\.\\d+)?([eE][-+]?\\d+)?"));
        List<Mutant> out = new ArrayList<>();
        for (int i = 0; i < count && !spans.isEmpty(); i++) {
            int[] s = spans.get(random.nextInt(spans.size()));
            String lie = TEXT_LIES[random.nextInt(TEXT_LIES.length)];
            out.add(text("number at " + s[0] + " = " + lie, valid.substring(0, s[0]) + lie + valid.substring(s[1])));
        }
        return out;
    }

    /** {@code count} texts with line breaks or control characters put inside a word (a key, a name, a value). */
    List<Mutant> junkInNames(String valid, int count) {
        List<int[]> spans = spans(valid, Pattern.compile("[A-Za-z_][A-Za-z0-9_.]{2,}"));
        List<Mutant> out = new ArrayList<>();
        for (int i = 0; i < count && !spans.isEmpty(); i++) {
            int[] s = spans.get(random.nextInt(spans.size()));
            int at = s[0] + 1 + random.nextInt(s[1] - s[0] - 1);
            String junk = NAME_JUNK[random.nextInt(NAME_JUNK.length)];
            out.add(text("junk " + escape(junk) + " at " + at, valid.substring(0, at) + junk + valid.substring(at)));
        }
        return out;
    }

    /** Each occurrence of {@code reference} (a file name written in the text) replaced by each hostile path. */
    List<Mutant> hostilePaths(String valid, String reference) {
        List<Mutant> out = new ArrayList<>();
        if (!valid.contains(reference)) return out;
        for (String p : HOSTILE_PATHS) out.add(text("path '" + escape(p) + "' for '" + reference + "'", valid.replace(reference, p)));
        out.add(text("missing file for '" + reference + "'", valid.replace(reference, "no-such-" + reference)));
        return out;
    }

    /** Truncated texts (by characters, so UTF-8 stays whole where the text is ASCII). */
    List<Mutant> textTruncations(String valid, int count) {
        List<Mutant> out = new ArrayList<>();
        for (Mutant m : truncations(valid.getBytes(StandardCharsets.UTF_8), count)) out.add(m);
        return out;
    }

    static Mutant text(String label, String text) {
        return new Mutant(label, text.getBytes(StandardCharsets.UTF_8));
    }

    static byte[] withInteger(byte[] valid, int at, int width, long value) {
        byte[] b = valid.clone();
        ByteBuffer buf = ByteBuffer.wrap(b, at, width).order(ByteOrder.LITTLE_ENDIAN);
        if (width == 4) buf.putInt((int) value);
        else buf.putLong(value);
        return b;
    }

    static long littleEndian(byte[] b, int at, int width) {
        ByteBuffer buf = ByteBuffer.wrap(b, at, width).order(ByteOrder.LITTLE_ENDIAN);
        return width == 4 ? buf.getInt() & 0xffff_ffffL : buf.getLong();
    }

    /** Where {@code what} first occurs in {@code bytes} (as ASCII), or -1. */
    static int indexOf(byte[] bytes, String what) {
        byte[] w = what.getBytes(StandardCharsets.UTF_8);
        outer:
        for (int i = 0; i + w.length <= bytes.length; i++) {
            for (int j = 0; j < w.length; j++) if (bytes[i + j] != w[j]) continue outer;
            return i;
        }
        return -1;
    }

    private Mutant truncated(byte[] valid, int at) {
        return new Mutant("truncated to " + at + " of " + valid.length + " bytes", Arrays.copyOf(valid, at));
    }

    private int headerBiased(int length) {
        return random.nextBoolean() ? random.nextInt(Math.min(length, 512)) : random.nextInt(length);
    }

    private static List<int[]> spans(String text, Pattern p) {
        List<int[]> spans = new ArrayList<>();
        Matcher m = p.matcher(text);
        while (m.find()) spans.add(new int[] {m.start(), m.end()});
        return spans;
    }

    static String escape(String s) {
        StringBuilder b = new StringBuilder();
        for (char c : s.toCharArray()) b.append(c < 0x20 || c > 0x7e ? String.format("\\u%04x", (int) c) : String.valueOf(c));
        return b.toString();
    }
}
