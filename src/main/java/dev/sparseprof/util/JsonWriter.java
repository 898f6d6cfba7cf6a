package dev.sparseprof.util;

import java.util.Locale;

/**
 * A streaming, pretty-printing JSON writer. The caller nests {@code beginObject}/{@code endObject}
 * and {@code beginArray}/{@code endArray}; {@code name(...)} precedes each member of an object.
 * Non-finite doubles are written as {@code null} (JSON has no NaN).
 *
 * <pre>{@code
 * JsonWriter w = new JsonWriter();
 * w.beginObject().name("layers").beginArray();
 * w.beginObject().name("name").value("fc1").name("nnz").value(42).endObject();
 * w.endArray().endObject();
 * String json = w.toString();
 * }</pre>
 */
public final class JsonWriter {
    private final StringBuilder out = new StringBuilder();
    private final boolean[] hasMember = new boolean[128];
    private int depth;
    private boolean afterName;

    public JsonWriter beginObject() {
        beforeValue();
        out.append('{');
        push();
        return this;
    }

    public JsonWriter endObject() {
        pop('}');
        return this;
    }

    public JsonWriter beginArray() {
        beforeValue();
        out.append('[');
        push();
        return this;
    }

    public JsonWriter endArray() {
        pop(']');
        return this;
    }

    public JsonWriter name(String name) {
        separator();
        quote(name);
        out.append(": ");
        afterName = true;
        return this;
    }

    public JsonWriter value(String s) {
        beforeValue();
        if (s == null) out.append("null");
        else quote(s);
        return this;
    }

    public JsonWriter value(long v) {
        beforeValue();
        out.append(v);
        return this;
    }

    public JsonWriter value(double v) {
        beforeValue();
        // Double.toString is the shortest text that reads back exactly, and valid JSON ("1.0E-5").
        out.append(Double.isFinite(v) ? Double.toString(v) : "null");
        return this;
    }

    public JsonWriter value(boolean v) {
        beforeValue();
        out.append(v);
        return this;
    }

    public JsonWriter nullValue() {
        beforeValue();
        out.append("null");
        return this;
    }

    /** Shorthands for {@code name(n).value(v)}. */
    public JsonWriter field(String n, String v) {
        return name(n).value(v);
    }

    public JsonWriter field(String n, long v) {
        return name(n).value(v);
    }

    public JsonWriter field(String n, double v) {
        return name(n).value(v);
    }

    public JsonWriter field(String n, boolean v) {
        return name(n).value(v);
    }

    @Override
    public String toString() {
        return out.toString() + (depth == 0 ? "\n" : "");
    }

    private void beforeValue() {
        if (afterName) {
            afterName = false;
            return;
        }
        if (depth > 0) separator();
    }

    private void separator() {
        if (hasMember[depth]) out.append(',');
        hasMember[depth] = true;
        newline();
    }

    private void push() {
        depth++;
        hasMember[depth] = false;
    }

    private void pop(char close) {
        boolean any = hasMember[depth];
        depth--;
        if (any) newline();
        out.append(close);
    }

    private void newline() {
        out.append('\n');
        out.append("  ".repeat(depth));
    }

    private void quote(String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    else out.append(c);
                }
            }
        }
        out.append('"');
    }
}
