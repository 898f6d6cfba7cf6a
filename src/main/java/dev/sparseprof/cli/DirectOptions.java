package dev.sparseprof.cli;

import java.lang.reflect.Field;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * A subcommand's options bound straight from its picocli {@code @Option} annotations, without
 * building picocli's model, whose classes (class-file version 49: no class-data sharing) were most
 * of a short {@code cachesim}'s time (docs/memsim.md, Start-up).
 *
 * <p>Contract: {@link #bind} either binds every argument the way picocli would and returns true, or
 * returns false, and then the caller runs picocli on a fresh command object, which gives the same
 * result or its own message for the fault. Handled: {@code --name value}, {@code --name=value},
 * flags, repeated list options (with {@code split}), decimal integers, {@code defaultValue}, mixins,
 * and one optional positional string ({@code index = "0", arity = "0..1"}: profile's MODEL).
 * Everything else (a help or version request, an unknown or repeated single option, a value that is
 * an option name or not a plain number, a second positional, {@code @file} arguments, other
 * positional parameters, argument groups, arity, converters, required options) returns false.
 */
final class DirectOptions {
    private static final String NO_DEFAULT = "__no_default_value__"; // picocli's "no defaultValue" marker

    private DirectOptions() {}

    /** One option (or, with a null option, the positional parameter): the field it sets and the object that holds it. */
    private record Target(Object holder, Field field, Option option) {}

    /** The key under which {@link #collect} files the positional parameter, a name no option can have. */
    private static final String POSITIONAL = "";

    /** Binds {@code args[from..]} to {@code command}'s options; false where picocli must decide (see the class comment). */
    static boolean bind(Object command, String[] args, int from) {
        Map<String, Target> byName = new HashMap<>();
        List<Target> all = new ArrayList<>();
        try {
            if (!collect(command, byName, all)) return false;
            Map<Field, Boolean> seen = new HashMap<>();
            for (int i = from; i < args.length; i++) {
                String a = args[i];
                String value = null;
                Target t = a.isEmpty() ? null : byName.get(a);
                int eq = a.indexOf('=');
                if (t == null && a.startsWith("--") && eq > 2) {
                    t = byName.get(a.substring(0, eq));
                    value = a.substring(eq + 1);
                }
                if (t == null && !a.isEmpty() && a.charAt(0) != '-' && a.charAt(0) != '@' && byName.get(POSITIONAL) != null) {
                    Target p = byName.get(POSITIONAL);
                    if (seen.put(p.field, true) != null) return false;
                    p.field.set(p.holder, a);
                    continue;
                }
                if (t == null) return false;
                Class<?> type = t.field.getType();
                if (type == boolean.class) {
                    if (value != null || seen.put(t.field, true) != null) return false;
                    t.field.setBoolean(t.holder, true);
                    continue;
                }
                if (value == null) {
                    if (++i >= args.length || byName.containsKey(args[i])) return false;
                    value = args[i];
                }
                boolean again = seen.put(t.field, true) != null;
                if (type == List.class) {
                    @SuppressWarnings("unchecked")
                    List<Object> list = (List<Object>) t.field.get(t.holder);
                    if (!again) {
                        list = new ArrayList<>(); // picocli replaces a collection's initial value
                        t.field.set(t.holder, list);
                    }
                    Class<?> element = elementType(t.field);
                    String split = t.option.split();
                    for (String part : split.isEmpty() ? new String[] {value} : value.split(split, -1)) {
                        Object v = convert(element, part);
                        if (v == null) return false;
                        list.add(v);
                    }
                } else {
                    if (again || !set(t, value)) return false;
                }
            }
            for (Target t : all) {
                if (!seen.containsKey(t.field) && !t.option.defaultValue().equals(NO_DEFAULT) && !set(t, t.option.defaultValue())) return false;
            }
            return true;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return false;
        }
    }

    private static boolean collect(Object holder, Map<String, Target> byName, List<Target> all) throws ReflectiveOperationException {
        for (Field f : holder.getClass().getDeclaredFields()) {
            if (f.isAnnotationPresent(ArgGroup.class) || f.isAnnotationPresent(ParentCommand.class)) return false;
            Parameters p = f.getAnnotation(Parameters.class);
            if (p != null) {
                if (!p.index().equals("0") || !p.arity().equals("0..1") || f.getType() != String.class || p.converter().length > 0
                        || !p.defaultValue().equals(NO_DEFAULT) || byName.containsKey(POSITIONAL)) return false;
                f.setAccessible(true);
                byName.put(POSITIONAL, new Target(holder, f, null));
                continue;
            }
            if (f.isAnnotationPresent(Spec.class)) continue;
            if (f.isAnnotationPresent(Mixin.class)) {
                f.setAccessible(true);
                var c = f.getType().getDeclaredConstructor();
                c.setAccessible(true);
                Object mixin = c.newInstance();
                f.set(holder, mixin);
                if (!collect(mixin, byName, all)) return false;
                continue;
            }
            Option o = f.getAnnotation(Option.class);
            if (o == null) continue;
            if (o.help() || o.usageHelp() || o.versionHelp() || o.required() || o.negatable() || o.interactive() || !o.arity().isEmpty()
                    || o.converter().length > 0 || o.type().length > 0 || !o.fallbackValue().isEmpty()) return false;
            Class<?> type = f.getType();
            if (type != boolean.class && type != List.class && !convertible(type)) return false;
            if (type == List.class && !convertible(elementType(f))) return false;
            f.setAccessible(true);
            Target t = new Target(holder, f, o);
            all.add(t);
            for (String n : o.names()) if (byName.put(n, t) != null) return false;
        }
        return true;
    }

    private static Class<?> elementType(Field f) {
        Type g = f.getGenericType();
        if (g instanceof ParameterizedType p && p.getActualTypeArguments()[0] instanceof Class<?> c) return c;
        return Void.class;
    }

    private static boolean convertible(Class<?> type) {
        return type == String.class || type == Path.class || type == int.class || type == long.class;
    }

    private static boolean set(Target t, String text) throws IllegalAccessException {
        Object v = convert(t.field.getType(), text);
        if (v == null) return false;
        t.field.set(t.holder, v);
        return true;
    }

    /** The value picocli's built-in converter gives for {@code text}, or null where this class leaves it to picocli. */
    private static Object convert(Class<?> type, String text) {
        if (type == String.class) return text;
        if (type == Path.class) return Path.of(text);
        if (type != int.class && type != long.class) return null;
        if (text.isEmpty() || text.length() > 18) return null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if ((c < '0' || c > '9') && !(i == 0 && c == '-' && text.length() > 1)) return null;
        }
        long v = Long.parseLong(text);
        if (type == long.class) return v;
        return v == (int) v ? (Object) (int) v : null;
    }
}
