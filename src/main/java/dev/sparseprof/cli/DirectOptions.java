package dev.sparseprof.cli;

import java.io.IOException;
import java.io.InputStream;
import java.lang.classfile.Annotation;
import java.lang.classfile.AnnotationElement;
import java.lang.classfile.AnnotationValue;
import java.lang.classfile.Attributes;
import java.lang.classfile.ClassFile;
import java.lang.classfile.FieldModel;
import java.lang.reflect.Field;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
 *
 * <p>The annotations are read from the command's class file (the JDK's {@code java.lang.classfile}),
 * not through reflection: reflection makes a dynamic proxy class for each annotation type, which
 * no class-data archive of JDK 25 holds, so every run generated them again (36-94 ms of a
 * {@code cachesim} run on the 2-vCPU VM, docs/memsim.md, Start-up). An element the class file does
 * not give has its picocli default.
 */
final class DirectOptions {
    private static final String NO_DEFAULT = "__no_default_value__"; // picocli's "no defaultValue" marker
    // picocli's annotations as class files name them
    private static final String OPTION = "Lpicocli/CommandLine$Option;";
    private static final String PARAMETERS = "Lpicocli/CommandLine$Parameters;";
    private static final String MIXIN = "Lpicocli/CommandLine$Mixin;";
    private static final String SPEC = "Lpicocli/CommandLine$Spec;";
    private static final String ARG_GROUP = "Lpicocli/CommandLine$ArgGroup;";
    private static final String PARENT_COMMAND = "Lpicocli/CommandLine$ParentCommand;";

    private DirectOptions() {}

    /**
     * One option (or, with null default and split, the positional parameter): the field it sets, the
     * object that holds it, its {@code defaultValue} and {@code split}.
     */
    private record Target(Object holder, Field field, String defaultValue, String split) {}

    /** The elements one annotation gives in the class file; the others have picocli's defaults. */
    private record Given(Map<String, AnnotationValue> elements) {
        String string(String name, String picocliDefault) {
            return elements.get(name) instanceof AnnotationValue.OfString v ? v.stringValue() : picocliDefault;
        }

        boolean flag(String name) {
            return elements.get(name) instanceof AnnotationValue.OfBoolean v && v.booleanValue();
        }

        /** True if an array element (converter, type) is given with at least one value. */
        boolean nonEmpty(String name) {
            AnnotationValue v = elements.get(name);
            return v != null && !(v instanceof AnnotationValue.OfArray a && a.values().isEmpty());
        }

        /** A string array element's values; null if it is not one. */
        List<String> strings(String name) {
            if (!(elements.get(name) instanceof AnnotationValue.OfArray a)) return null;
            List<String> out = new ArrayList<>();
            for (AnnotationValue v : a.values()) {
                if (!(v instanceof AnnotationValue.OfString s)) return null;
                out.add(s.stringValue());
            }
            return out;
        }
    }

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
                    String split = t.split;
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
                if (!seen.containsKey(t.field) && !t.defaultValue.equals(NO_DEFAULT) && !set(t, t.defaultValue)) return false;
            }
            return true;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return false;
        }
    }

    private static boolean collect(Object holder, Map<String, Target> byName, List<Target> all) throws ReflectiveOperationException {
        Class<?> type = holder.getClass();
        Map<String, Map<String, Given>> annotated = fieldAnnotations(type);
        if (annotated == null) return false;
        for (Map.Entry<String, Map<String, Given>> e : annotated.entrySet()) {
            Map<String, Given> a = e.getValue();
            if (a.containsKey(ARG_GROUP) || a.containsKey(PARENT_COMMAND)) return false;
            Field f = type.getDeclaredField(e.getKey());
            Given p = a.get(PARAMETERS);
            if (p != null) {
                if (!p.string("index", "").equals("0") || !p.string("arity", "").equals("0..1") || f.getType() != String.class
                        || p.nonEmpty("converter") || !p.string("defaultValue", NO_DEFAULT).equals(NO_DEFAULT)
                        || byName.containsKey(POSITIONAL)) return false;
                f.setAccessible(true);
                byName.put(POSITIONAL, new Target(holder, f, null, null));
                continue;
            }
            if (a.containsKey(SPEC)) continue;
            if (a.containsKey(MIXIN)) {
                f.setAccessible(true);
                var c = f.getType().getDeclaredConstructor();
                c.setAccessible(true);
                Object mixin = c.newInstance();
                f.set(holder, mixin);
                if (!collect(mixin, byName, all)) return false;
                continue;
            }
            Given o = a.get(OPTION);
            if (o == null) continue;
            if (o.flag("help") || o.flag("usageHelp") || o.flag("versionHelp") || o.flag("required") || o.flag("negatable")
                    || o.flag("interactive") || !o.string("arity", "").isEmpty() || o.nonEmpty("converter") || o.nonEmpty("type")
                    || !o.string("fallbackValue", "").isEmpty()) return false;
            List<String> names = o.strings("names");
            if (names == null) return false;
            Class<?> fieldType = f.getType();
            if (fieldType != boolean.class && fieldType != List.class && !convertible(fieldType)) return false;
            if (fieldType == List.class && !convertible(elementType(f))) return false;
            f.setAccessible(true);
            Target t = new Target(holder, f, o.string("defaultValue", NO_DEFAULT), o.string("split", ""));
            all.add(t);
            for (String n : names) if (byName.put(n, t) != null) return false;
        }
        return true;
    }

    /**
     * Each field's picocli annotations (by descriptor) with the elements they give, in the class
     * file's field order, read from {@code type}'s class file; null if it cannot be read.
     */
    private static Map<String, Map<String, Given>> fieldAnnotations(Class<?> type) {
        byte[] bytes;
        ClassLoader loader = type.getClassLoader();
        if (loader == null) return null;
        try (InputStream in = loader.getResourceAsStream(type.getName().replace('.', '/') + ".class")) {
            if (in == null) return null;
            bytes = in.readAllBytes();
        } catch (IOException e) {
            return null;
        }
        Map<String, Map<String, Given>> out = new LinkedHashMap<>();
        for (FieldModel f : ClassFile.of().parse(bytes).fields()) {
            var attribute = f.findAttribute(Attributes.runtimeVisibleAnnotations());
            if (attribute.isEmpty()) continue;
            Map<String, Given> byType = new HashMap<>();
            for (Annotation a : attribute.get().annotations()) {
                String descriptor = a.className().stringValue();
                if (!descriptor.startsWith("Lpicocli/")) continue;
                Map<String, AnnotationValue> elements = new HashMap<>();
                for (AnnotationElement e : a.elements()) elements.put(e.name().stringValue(), e.value());
                byType.put(descriptor, new Given(elements));
            }
            if (!byType.isEmpty()) out.put(f.fieldName().stringValue(), byType);
        }
        return out;
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
