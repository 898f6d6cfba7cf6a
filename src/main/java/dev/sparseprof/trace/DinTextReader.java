package dev.sparseprof.trace;

import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.function.LongSupplier;

/**
 * Reads Dinero's text traces, both dialects, line by line from bytes (no String per line, no
 * regex): classic din {@code <label> <hex address>} with labels 0-5 (0 read, 1 write, 2 ifetch,
 * 3 misc, 4 copy-back, 5 invalidate; the rest of the line is ignored, every access is
 * {@code defaultSizeBytes} long), and extended din {@code <r|w|i|m|c|v> <hex address> <hex size>}.
 * Blank lines, spaces, tabs and CR are tolerated; the {@code 0x} prefix is optional. Imported
 * records carry {@link ArrayRole#UNKNOWN}.
 */
public final class DinTextReader extends StreamTraceReader {
    private static final int BUFFER_BYTES = 1 << 20;
    private static final int MAX_HEX_DIGITS = 16;
    /** A classic record the fast path takes is at most 21 bytes ("5 0x" + 16 digits + newline). */
    private static final int FAST_MARGIN = 32;
    private static final byte[] HEX = new byte[256];
    private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;

    static {
        Arrays.fill(HEX, (byte) -1);
        for (int i = 0; i < 10; i++) HEX['0' + i] = (byte) i;
        for (int i = 0; i < 6; i++) {
            HEX['a' + i] = (byte) (10 + i);
            HEX['A' + i] = (byte) (10 + i);
        }
    }

    private final int defaultSizeBytes;
    private final byte[] buf = new byte[BUFFER_BYTES];
    private int pos;
    private int limit;
    private boolean eof;
    private long line = 1;
    private long ownBytes;

    /** @param bytesConsumed counts the file's bytes (null: the bytes this reader took from {@code in}) */
    public DinTextReader(InputStream in, String source, int defaultSizeBytes, LongSupplier bytesConsumed) {
        super(in, source, bytesConsumed);
        this.defaultSizeBytes = defaultSizeBytes;
    }

    public DinTextReader(InputStream in, String source) {
        this(in, source, 4, null);
    }

    @Override
    public int fill(TraceChunk chunk) {
        chunk.clear();
        while (!chunk.isFull()) {
            if (limit - pos >= FAST_MARGIN && fastRun(chunk) > 0) continue;
            int c = skipBlank();
            if (c < 0) break;
            readRecord(c, chunk);
        }
        return chunk.size();
    }

    /**
     * The common case straight from the buffer, as many records in a row as it finds: a classic
     * label, one space, hex digits (optional 0x), a newline. It stops at the first record that is
     * anything else (left to the general path, which also words the errors), within
     * {@value #FAST_MARGIN} bytes of the buffer's end, or when the chunk is full; returns how many
     * records it took. Locals only in the loop: the address and kind of each record go straight
     * into the chunk's arrays, the run's sizes and roles are written after it in one fill each, and
     * the line count and buffer position are stored once.
     */
    private int fastRun(TraceChunk chunk) {
        final byte[] b = buf;
        final long[] addresses = chunk.addressArray();
        final byte[] kinds = chunk.kindArray();
        final int first = chunk.size();
        final int capacity = chunk.capacity();
        final int end = limit - FAST_MARGIN; // a record starting at or before it lies wholly in the buffer
        int p = pos;
        int n = first;
        while (n < capacity && p <= end) {
            int label = b[p] - '0';
            if (label < 0 || label > 5 || b[p + 1] != ' ') break;
            int q = p + 2;
            if (b[q] == '0' && (b[q + 1] | 0x20) == 'x') q += 2;
            int start = q;
            long eight = (long) LONG_LE.get(b, q);
            // the leading hex digits among these 8 bytes: the first byte that is not one ends them
            int digits = Long.numberOfTrailingZeros(~hexDigitHighs(eight) & HIGHS) >>> 3;
            long address;
            if (digits == 8) {
                address = hexValue8(eight);
                q += 8;
                int v;
                while ((v = HEX[b[q] & 0xff]) >= 0) {
                    address = (address << 4) | v;
                    q++;
                }
                digits = q - start;
            } else {
                if (digits == 0) break;
                // the digits moved to the top bytes, zero bytes below them read as leading 0 digits
                address = hexValue8(eight << (8 * (8 - digits)));
                q += digits;
            }
            if (digits > MAX_HEX_DIGITS || b[q] != '\n') break;
            addresses[n] = address;
            kinds[n] = (byte) label;
            n++;
            p = q + 1;
        }
        int taken = n - first;
        if (taken > 0) {
            chunk.appendRun(n, defaultSizeBytes, ArrayRole.UNKNOWN);
            pos = p;
            line += taken;
        }
        return taken;
    }

    private void readRecord(int labelChar, TraceChunk chunk) {
        long recordLine = line;
        int after = next();
        if (isEnd(after)) throw bad(recordLine, "missing address after label '" + (char) labelChar + "'");
        if (after != ' ' && after != '\t') throw bad(recordLine, "bad label '" + printable(labelChar, after) + "'");
        AccessKind kind;
        boolean extended;
        if (labelChar >= '0' && labelChar <= '5') {
            kind = AccessKinds.BY_ORDINAL[labelChar - '0'];
            extended = false;
        } else {
            kind = extendedKind(labelChar);
            if (kind == null) throw bad(recordLine, "bad label '" + (char) labelChar + "' (din labels are 0-5, extended r w i m c v)");
            extended = true;
        }
        int c = skipSpaces();
        long address = 0;
        int digits = 0;
        if (c == '0') {
            c = next();
            if (c == 'x' || c == 'X') c = next();
            else digits = 1; // the 0 was a digit
        }
        int v;
        while ((v = hexValue(c)) >= 0) {
            if (++digits > MAX_HEX_DIGITS) throw bad(recordLine, "address has more than 16 hex digits");
            address = (address << 4) | v;
            c = next();
        }
        if (digits == 0) throw bad(recordLine, "missing or non-hex address");
        if (!isEnd(c) && c != ' ' && c != '\t') throw bad(recordLine, "non-hex address (at '" + (char) c + "')");
        int size = defaultSizeBytes;
        if (extended) {
            if (isEnd(c)) throw bad(recordLine, "missing size (extended din is '<label> <hex address> <hex size>')");
            c = skipSpaces();
            long s = 0;
            int sd = 0;
            while ((v = hexValue(c)) >= 0) {
                if (++sd > 8) throw bad(recordLine, "size too large");
                s = (s << 4) | v;
                c = next();
            }
            if (sd == 0 || (!isEnd(c) && c != ' ' && c != '\t')) throw bad(recordLine, "non-hex size");
            if (s < 1 || s > Integer.MAX_VALUE) throw bad(recordLine, "size must be at least 1, got " + s);
            size = (int) s;
        }
        while (!isEnd(c)) c = next(); // the rest of the line is ignored
        if (c == '\n') line++;
        chunk.add(kind, address, size, ArrayRole.UNKNOWN);
    }

    /** The high bit of every byte of {@code x} that is an ASCII hex digit, no other bit (SWAR: a byte range test on every lane at once). */
    static long hexDigitHighs(long x) {
        long lower = x | 0x2020202020202020L; // letters to lower case (digits already have bit 5)
        return between(x, 0x2f, 0x3a) | between(lower, 0x60, 0x67);
    }

    /** The high bit of every byte of {@code x} that lies strictly between {@code m} and {@code n} (both below 0x80). */
    private static long between(long x, int m, int n) {
        long low7 = x & (ONES * 127);
        return (ONES * (127 + n) - low7) & ~x & (low7 + ONES * (127 - m)) & HIGHS;
    }

    /** The value of 8 hex digits, the first in the lowest byte of {@code x} (a little-endian read). */
    static long hexValue8(long x) {
        long v = (x & (ONES * 0x0f)) + ((x >>> 6) & ONES) * 9; // '0'-'9' -> 0-9, 'a'-'f' and 'A'-'F' -> 10-15
        v = ((v & 0x000F000F000F000FL) << 4) | ((v >>> 8) & 0x000F000F000F000FL); // digit pairs: 8-bit lanes
        v = ((v & 0x000000FF000000FFL) << 8) | ((v >>> 16) & 0x000000FF000000FFL); // 16-bit lanes
        return ((v & 0xFFFFL) << 16) | ((v >>> 32) & 0xFFFFL);
    }

    private static AccessKind extendedKind(int c) {
        return switch (c) {
            case 'r' -> AccessKind.READ;
            case 'w' -> AccessKind.WRITE;
            case 'i' -> AccessKind.INSTRUCTION_FETCH;
            case 'm' -> AccessKind.MISC;
            case 'c' -> AccessKind.COPY_BACK;
            case 'v' -> AccessKind.INVALIDATE;
            default -> null;
        };
    }

    private static int hexValue(int c) {
        return c < 0 ? -1 : HEX[c];
    }

    private static boolean isEnd(int c) {
        return c == '\n' || c == '\r' || c < 0;
    }

    private int skipBlank() {
        while (true) {
            int c = next();
            if (c == '\n') line++;
            else if (c != ' ' && c != '\t' && c != '\r') return c;
        }
    }

    private int skipSpaces() {
        int c;
        do c = next(); while (c == ' ' || c == '\t');
        return c;
    }

    private int next() {
        if (pos < limit) return buf[pos++] & 0xff;
        return refill();
    }

    private int refill() {
        if (eof) return -1;
        try {
            pos = 0;
            limit = 0;
            int n;
            do n = in.read(buf, 0, buf.length); while (n == 0);
            if (n < 0) {
                eof = true;
                return -1;
            }
            ownBytes += n;
            limit = n;
            return buf[pos++] & 0xff;
        } catch (IOException e) {
            throw new TraceFormatException(source + ": cannot read (" + e.getMessage() + ")", e);
        }
    }

    private TraceFormatException bad(long atLine, String fault) {
        return TraceFormatException.atLine(source, atLine, fault);
    }

    private static String printable(int a, int b) {
        StringBuilder s = new StringBuilder().append((char) a);
        if (b >= 0x21 && b < 0x7f) s.append((char) b);
        return s.toString();
    }

    @Override
    long streamBytes() {
        return ownBytes;
    }
}
