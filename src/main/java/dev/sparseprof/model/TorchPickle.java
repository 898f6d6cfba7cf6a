package dev.sparseprof.model;

import dev.sparseprof.util.DType;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * A restricted unpickler for torch.save's {@code data.pkl}, of our own: it interprets pickle
 * protocols 0-5 as data and never executes anything. Only these globals may appear, each a fixed
 * meaning here rather than a call:
 * <ul>
 * <li>{@code torch._utils._rebuild_tensor_v2} / {@code _rebuild_tensor}: a tensor (storage, element
 *     offset, size, stride), checked against its storage;
 * <li>{@code torch._utils._rebuild_tensor_v3}: the same over an untyped byte storage, its dtype a
 *     {@code torch.<dtype>} global (torch 2.x, for fp8 and other dtypes without a typed storage);
 * <li>{@code torch._utils._rebuild_parameter} / {@code _rebuild_parameter_with_state}: an
 *     {@code nn.Parameter}, which is its tensor;
 * <li>the storage types ({@code torch.FloatStorage}, {@code HalfStorage}, {@code BFloat16Storage},
 *     ..., {@code torch.UntypedStorage} as bytes): the element type inside a persistent id
 *     {@code ('storage', type, key, location, numel)}, never called;
 * <li>{@code collections.OrderedDict}: a dict (called with no arguments; BUILD may set its
 *     {@code _metadata} attribute, which is dropped);
 * <li>{@code torch.Size}: a tuple; {@code _codecs.encode(str, 'latin1')}: bytes, the way protocol 2
 *     pickles a {@code bytes} value (inside {@code _extra_state} and metadata).
 * </ul>
 * Any other GLOBAL / STACK_GLOBAL is refused when it is read, naming it; REDUCE of anything but the
 * functions above, BUILD on anything but a dict, and INST, OBJ, NEWOBJ, NEWOBJ_EX, EXT1-4,
 * out-of-band buffers and PERSID with a text id are refused naming the opcode and target. Every
 * length is checked against the bytes left before anything is allocated; nesting is bounded.
 *
 * <p>A TorchScript archive's {@code data.pkl} ({@code torch.jit.save}; {@link #loadScript}) pickles
 * the module tree itself. There, and only there, two more kinds of global are read as data, the way
 * torch's own C++ unpickler resolves them (from the archive's type table, never by importing code):
 * <ul>
 * <li>a class of the {@code __torch__} namespace ({@code __torch__.torch.nn.modules.linear.Linear}):
 *     NEWOBJ of it with no arguments is a {@link ScriptObject}, and BUILD sets its attributes from a
 *     dict (a {@code __getstate__} state of another kind is kept as its one attribute
 *     {@code state});
 * <li>{@code torch.jit._pickle.restore_type_tag(value, type)} and {@code build_intlist},
 *     {@code build_floatlist}, {@code build_doublelist}, {@code build_boollist},
 *     {@code build_tensorlist} (a typed container): the value or list itself.
 * </ul>
 */
final class TorchPickle {
    /** A persistent-id storage: {@code data/KEY} of the archive, {@code numel} elements of {@code dtype}. */
    record Storage(String key, DType dtype, long numel) {}

    /** A tensor view of a storage, checked: every element it reaches lies inside the storage. */
    record TensorRef(Storage storage, long offset, long[] size, long[] stride) {}

    /** A pickled tuple (immutable, comparable as a dict key). */
    record Tuple(List<Object> items) {}

    /** An object of a TorchScript class ({@code __torch__...}): its type name and its attributes, by name. */
    record ScriptObject(String type, Map<Object, Object> attributes) {}

    private record Global(String module, String name) {
        String qualified() {
            return module + "." + name;
        }
    }

    private enum Mark { MARK }

    private enum None { NONE }

    private static final Map<String, DType> STORAGES = Map.ofEntries(
            Map.entry("FloatStorage", DType.F32), Map.entry("DoubleStorage", DType.F64), Map.entry("HalfStorage", DType.F16),
            Map.entry("BFloat16Storage", DType.BF16), Map.entry("LongStorage", DType.I64), Map.entry("IntStorage", DType.I32),
            Map.entry("ShortStorage", DType.I16), Map.entry("CharStorage", DType.I8), Map.entry("ByteStorage", DType.U8),
            Map.entry("BoolStorage", DType.BOOL), Map.entry("UntypedStorage", DType.U8),
            Map.entry("Float8_e4m3fnStorage", DType.F8_E4M3), Map.entry("Float8_e5m2Storage", DType.F8_E5M2));
    /**
     * The {@code torch.<dtype>} globals {@code _rebuild_tensor_v3} names its element type by (torch
     * pickles a dtype as the global of its name): those of the dtypes sparseprof reads.
     */
    private static final Map<String, DType> DTYPES = Map.ofEntries(
            Map.entry("float32", DType.F32), Map.entry("float", DType.F32), Map.entry("float64", DType.F64), Map.entry("double", DType.F64),
            Map.entry("float16", DType.F16), Map.entry("half", DType.F16), Map.entry("bfloat16", DType.BF16),
            Map.entry("float8_e4m3fn", DType.F8_E4M3), Map.entry("float8_e5m2", DType.F8_E5M2),
            Map.entry("int64", DType.I64), Map.entry("long", DType.I64), Map.entry("int32", DType.I32), Map.entry("int", DType.I32),
            Map.entry("int16", DType.I16), Map.entry("short", DType.I16), Map.entry("uint16", DType.U16), Map.entry("int8", DType.I8),
            Map.entry("uint8", DType.U8), Map.entry("bool", DType.BOOL));
    private static final Set<String> FUNCTIONS = Set.of("torch._utils._rebuild_tensor_v2", "torch._utils._rebuild_tensor",
            "torch._utils._rebuild_tensor_v3",
            "torch._utils._rebuild_parameter", "torch._utils._rebuild_parameter_with_state", "collections.OrderedDict",
            "torch.Size", "_codecs.encode");
    /** The typed-container helpers a TorchScript archive's pickle may call: each gives back its first argument. */
    private static final Set<String> SCRIPT_FUNCTIONS = Set.of("torch.jit._pickle.restore_type_tag", "torch.jit._pickle.build_intlist",
            "torch.jit._pickle.build_floatlist", "torch.jit._pickle.build_doublelist", "torch.jit._pickle.build_boollist",
            "torch.jit._pickle.build_tensorlist");
    private static final Pattern SCRIPT_MODULE = Pattern.compile("__torch__(\\.[A-Za-z_][A-Za-z0-9_]*)*");
    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private final String source;
    private final MemorySegment bytes;
    private final Map<String, Long> storageBytes;
    private final boolean script;
    private long pos;
    private final List<Object> stack = new ArrayList<>();
    private final Map<Long, Object> memo = new HashMap<>();

    private TorchPickle(String source, MemorySegment bytes, Map<String, Long> storageBytes, boolean script) {
        this.source = source;
        this.bytes = bytes;
        this.storageBytes = storageBytes;
        this.script = script;
    }

    /**
     * Unpickles {@code pickle}; {@code storageBytes} gives the size of each {@code data/KEY} entry
     * the archive holds, against which persistent ids are checked. Returns the top object: maps,
     * lists, {@link Tuple}s, {@link TensorRef}s, strings, numbers, byte arrays, Boolean, or null.
     */
    static Object load(String source, MemorySegment pickle, Map<String, Long> storageBytes) {
        return new TorchPickle(source, pickle, storageBytes, false).run();
    }

    /** {@link #load} of a TorchScript archive's {@code data.pkl}: the top object is the root module, a {@link ScriptObject}. */
    static Object loadScript(String source, MemorySegment pickle, Map<String, Long> storageBytes) {
        return new TorchPickle(source, pickle, storageBytes, true).run();
    }

    private ModelFormatException fault(String what) {
        return ModelFormatException.in(source, "data.pkl at byte " + pos + ": " + what);
    }

    private ModelFormatException refuse(String what) {
        return ModelFormatException.in(source, "refusing pickle " + what + " (only torch's tensor and container rebuilders are allowed)");
    }

    private Object run() {
        while (true) {
            if (pos >= bytes.byteSize()) throw fault("ends without STOP");
            int op = u8();
            switch (op) {
                case 0x80 -> { // PROTO
                    int proto = u8();
                    if (proto > 5) throw fault("pickle protocol " + proto);
                }
                case 0x95 -> skip(8); // FRAME: a length hint only
                case '.' -> { // STOP
                    Object top = pop();
                    return top == None.NONE ? null : top;
                }
                case '(' -> push(Mark.MARK);
                case '}' -> push(new LinkedHashMap<>());
                case ']' -> push(new ArrayList<>());
                case ')' -> push(new Tuple(List.of()));
                case 't' -> push(new Tuple(popMark()));
                case 0x85 -> push(new Tuple(List.of(pop())));
                case 0x86 -> {
                    Object b = pop();
                    Object a = pop();
                    push(new Tuple(List.of(a, b)));
                }
                case 0x87 -> {
                    Object c = pop();
                    Object b = pop();
                    Object a = pop();
                    push(new Tuple(List.of(a, b, c)));
                }
                case 'l' -> push(new ArrayList<>(popMark()));
                case 'd' -> {
                    List<Object> items = popMark();
                    Map<Object, Object> m = new LinkedHashMap<>();
                    setItems(m, items);
                    push(m);
                }
                case 0x8f -> push(new ArrayList<>()); // EMPTY_SET: kept as a list of its items
                case 0x90 -> { // ADDITEMS
                    List<Object> items = popMark();
                    if (!(peek() instanceof List<?>)) throw refuse("ADDITEMS on " + describe(peek()));
                    list(peek()).addAll(items);
                }
                case 0x91 -> push(new ArrayList<>(popMark())); // FROZENSET
                case 'q' -> memo.put((long) u8(), peek()); // BINPUT
                case 'r' -> memo.put(u32(), peek()); // LONG_BINPUT
                case 0x94 -> memo.put((long) memo.size(), peek()); // MEMOIZE
                case 'p' -> memo.put(decimal(line()), peek()); // PUT
                case 'h' -> push(get((long) u8())); // BINGET
                case 'j' -> push(get(u32())); // LONG_BINGET
                case 'g' -> push(get(decimal(line()))); // GET
                case 'J' -> push((long) i32());
                case 'K' -> push((long) u8());
                case 'M' -> push((long) u16());
                case 0x8a -> push(longN(u8())); // LONG1
                case 0x8b -> push(longN(checkedLength(i32(), "LONG4"))); // LONG4
                case 'I' -> { // INT (protocol 0), also True/False as 01/00
                    String s = line();
                    push(s.equals("01") ? (Object) Boolean.TRUE : s.equals("00") ? (Object) Boolean.FALSE : (Object) decimal(s));
                }
                case 'L' -> push(decimal(line().replace("L", "")));
                case 'G' -> {
                    need(8);
                    push(bytes.get(ValueLayout.JAVA_DOUBLE_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN), pos));
                    pos += 8;
                }
                case 'F' -> {
                    try {
                        push(Double.parseDouble(line()));
                    } catch (NumberFormatException e) {
                        throw fault("bad FLOAT");
                    }
                }
                case 'X' -> push(utf8(checkedLength(u32(), "BINUNICODE")));
                case 0x8c -> push(utf8(u8())); // SHORT_BINUNICODE
                case 0x8d -> push(utf8(checkedLength(u64(), "BINUNICODE8"))); // BINUNICODE8
                case 'V' -> push(line()); // UNICODE (raw-unicode-escape; ASCII names in practice)
                case 'U' -> push(latin1(u8())); // SHORT_BINSTRING
                case 'T' -> push(latin1(checkedLength(i32(), "BINSTRING")));
                case 'S' -> push(quoted(line()));
                case 'B' -> push(raw(checkedLength(u32(), "BINBYTES")));
                case 'C' -> push(raw(u8())); // SHORT_BINBYTES
                case 0x8e, 0x96 -> push(raw(checkedLength(u64(), "BINBYTES8"))); // BINBYTES8, BYTEARRAY8
                case 'N' -> push(None.NONE);
                case 0x88 -> push(Boolean.TRUE);
                case 0x89 -> push(Boolean.FALSE);
                case 's' -> {
                    Object v = pop();
                    Object k = pop();
                    setItems(dict(peek(), "SETITEM"), List.of(k, v));
                }
                case 'u' -> {
                    List<Object> items = popMark();
                    setItems(dict(peek(), "SETITEMS"), items);
                }
                case 'a' -> {
                    Object v = pop();
                    if (!(peek() instanceof ArrayList<?>)) throw refuse("APPEND to " + describe(peek()));
                    list(peek()).add(v);
                }
                case 'e' -> {
                    List<Object> items = popMark();
                    if (!(peek() instanceof ArrayList<?>)) throw refuse("APPENDS to " + describe(peek()));
                    list(peek()).addAll(items);
                }
                case '0' -> pop();
                case '1' -> popMark();
                case '2' -> push(peek());
                case 'c' -> { // GLOBAL "module\nname\n"
                    String module = line();
                    String name = line();
                    push(global(module, name));
                }
                case 0x93 -> { // STACK_GLOBAL
                    Object name = pop();
                    Object module = pop();
                    if (!(module instanceof String m) || !(name instanceof String n)) throw refuse("STACK_GLOBAL of non-strings");
                    push(global(m, n));
                }
                case 'R' -> { // REDUCE
                    Object args = pop();
                    Object callable = pop();
                    push(reduce(callable, args));
                }
                case 'b' -> { // BUILD
                    Object state = pop();
                    Object target = peek();
                    if (target instanceof ScriptObject o) {
                        if (state instanceof Map<?, ?> m) {
                            setItems(o.attributes(), flat(m));
                        } else if (state != None.NONE) {
                            o.attributes().put("state", state);
                        }
                        continue;
                    }
                    if (!(target instanceof Map<?, ?>)) throw refuse("BUILD on " + describe(target));
                    if (!(state instanceof Map<?, ?>) && state != None.NONE) throw refuse("BUILD of a dict with " + describe(state));
                }
                case 'Q' -> push(persistent(pop())); // BINPERSID
                case 'P' -> throw refuse("PERSID '" + line() + "' (a text persistent id)");
                case 'i' -> throw refuse("INST " + line() + "." + line());
                case 'o' -> throw refuse("OBJ of " + describe(firstAfterMark()));
                case 0x81 -> { // NEWOBJ
                    Object args = pop();
                    Object type = pop();
                    if (!(type instanceof Global g) || !isScriptClass(g)) throw refuse("NEWOBJ of " + describe(type));
                    if (!(args instanceof Tuple t) || !t.items().isEmpty()) throw refuse("NEWOBJ of " + g.qualified() + " with " + describe(args));
                    push(new ScriptObject(g.qualified(), new LinkedHashMap<>()));
                }
                case 0x92 -> {
                    pop();
                    pop();
                    throw refuse("NEWOBJ_EX of " + describe(pop()));
                }
                case 0x82, 0x83, 0x84 -> throw refuse("EXT" + (op == 0x82 ? 1 : op == 0x83 ? 2 : 4) + " (extension registry)");
                case 0x97, 0x98 -> throw refuse("out-of-band buffer opcode " + op);
                default -> throw fault(String.format("unknown pickle opcode 0x%02x", op));
            }
        }
    }

    private Object global(String module, String name) {
        String q = module + "." + name;
        if (FUNCTIONS.contains(q)) return new Global(module, name);
        if (script && (SCRIPT_FUNCTIONS.contains(q) || SCRIPT_MODULE.matcher(module).matches() && IDENTIFIER.matcher(name).matches())) {
            return new Global(module, name);
        }
        if (module.equals("torch") && (STORAGES.containsKey(name) || DTYPES.containsKey(name))) return new Global(module, name);
        if (module.equals("torch.storage") && name.equals("UntypedStorage")) return new Global("torch", name);
        boolean pickledObject = !name.isEmpty() && Character.isUpperCase(name.charAt(0)) && !module.startsWith("__torch__");
        throw refuse("global " + q + (pickledObject ? ", a pickled " + name + " object as torch.save(model) writes; save model.state_dict() "
                + "or export to ONNX, TorchScript or safetensors," : ""));
    }

    private boolean isScriptClass(Global g) {
        return script && SCRIPT_MODULE.matcher(g.module()).matches();
    }

    /** A dict's entries as the flat key, value list {@link #setItems} takes. */
    private static List<Object> flat(Map<?, ?> m) {
        List<Object> items = new ArrayList<>(2 * m.size());
        m.forEach((k, v) -> {
            items.add(k);
            items.add(v);
        });
        return items;
    }

    private Object reduce(Object callable, Object args) {
        boolean scriptFunction = callable instanceof Global s && script && SCRIPT_FUNCTIONS.contains(s.qualified());
        if (!(callable instanceof Global g) || !FUNCTIONS.contains(g.qualified()) && !scriptFunction) {
            throw refuse("REDUCE of " + describe(callable));
        }
        if (!(args instanceof Tuple t)) throw refuse("REDUCE of " + g.qualified() + " with " + describe(args));
        List<Object> a = t.items();
        if (scriptFunction) {
            if (a.isEmpty()) throw refuse("REDUCE of " + g.qualified() + " without arguments");
            return a.get(0);
        }
        switch (g.qualified()) {
            case "collections.OrderedDict" -> {
                if (!a.isEmpty()) throw refuse("REDUCE of collections.OrderedDict with arguments");
                return new LinkedHashMap<>();
            }
            case "torch.Size" -> {
                if (a.size() != 1 || !(a.get(0) instanceof Tuple)) throw refuse("REDUCE of torch.Size with " + describe(args));
                return a.get(0);
            }
            case "_codecs.encode" -> {
                if (a.size() != 2 || !(a.get(0) instanceof String s) || !(a.get(1) instanceof String enc) || !enc.equals("latin1")) {
                    throw refuse("REDUCE of _codecs.encode other than (str, 'latin1')");
                }
                return s.getBytes(StandardCharsets.ISO_8859_1);
            }
            case "torch._utils._rebuild_parameter", "torch._utils._rebuild_parameter_with_state" -> {
                if (a.size() < 3 || !(a.get(0) instanceof TensorRef tensor)) throw refuse("REDUCE of " + g.qualified() + " without a tensor");
                return tensor;
            }
            case "torch._utils._rebuild_tensor_v3" -> {
                // _rebuild_tensor_v3(untyped storage, offset, size, stride, requires_grad, hooks, dtype[, metadata]): torch 2.x
                // for dtypes without a typed storage class (fp8, uint16...); offset, size and stride count elements of dtype
                if (a.size() < 7 || !(a.get(0) instanceof Storage s) || s.dtype() != DType.U8 || !(a.get(1) instanceof Long offset)
                        || !(a.get(2) instanceof Tuple size) || !(a.get(3) instanceof Tuple stride)
                        || !(a.get(6) instanceof Global dtype) || !DTYPES.containsKey(dtype.name())) {
                    throw refuse("REDUCE of " + g.qualified() + " with " + describe(args));
                }
                DType d = DTYPES.get(dtype.name());
                if (s.numel() % d.sizeBytes() != 0) {
                    throw fault("storage data/" + s.key() + " of " + s.numel() + " bytes is no whole number of " + dtype.qualified());
                }
                return tensor(new Storage(s.key(), d, s.numel() / d.sizeBytes()), offset, longs(size, "size"), longs(stride, "stride"));
            }
            default -> {
                // _rebuild_tensor_v2(storage, offset, size, stride, requires_grad, hooks[, metadata]), _rebuild_tensor(storage, offset, size, stride)
                if (a.size() < 4 || !(a.get(0) instanceof Storage s) || !(a.get(1) instanceof Long offset)
                        || !(a.get(2) instanceof Tuple size) || !(a.get(3) instanceof Tuple stride)) {
                    throw refuse("REDUCE of " + g.qualified() + " with " + describe(args));
                }
                return tensor(s, offset, longs(size, "size"), longs(stride, "stride"));
            }
        }
    }

    private TensorRef tensor(Storage s, long offset, long[] size, long[] stride) {
        return view(s, offset, size, stride, this::fault);
    }

    /**
     * A tensor view of {@code s}, checked: ranks agree (8 at most), nothing is negative, and every
     * element the view reaches lies inside the storage; else {@code fault} of what is wrong.
     */
    static TensorRef view(Storage s, long offset, long[] size, long[] stride, Function<String, ModelFormatException> fault) {
        if (size.length != stride.length) throw fault.apply("tensor size " + Arrays.toString(size) + " and stride of another rank");
        if (size.length > 8) throw fault.apply("tensor of rank " + size.length);
        if (offset < 0) throw fault.apply("negative storage offset " + offset);
        long last = offset;
        boolean empty = false;
        for (int i = 0; i < size.length; i++) {
            if (size[i] < 0 || stride[i] < 0) throw fault.apply("negative size or stride in a tensor of " + s.key());
            if (size[i] == 0) empty = true;
        }
        if (!empty) {
            for (int i = 0; i < size.length; i++) {
                if (size[i] - 1 > 0 && stride[i] > (Long.MAX_VALUE - last) / (size[i] - 1)) throw fault.apply("tensor view overflows");
                last += (size[i] - 1) * stride[i];
            }
            if (last >= s.numel()) {
                throw fault.apply("tensor view " + Arrays.toString(size) + " stride " + Arrays.toString(stride) + " at offset " + offset
                        + " reaches element " + last + " of storage data/" + s.key() + " of " + s.numel());
            }
        }
        return new TensorRef(s, offset, size, stride);
    }

    private long[] longs(Tuple t, String what) {
        long[] out = new long[t.items().size()];
        for (int i = 0; i < out.length; i++) {
            if (!(t.items().get(i) instanceof Long v)) throw fault("tensor " + what + " holds " + describe(t.items().get(i)));
            out[i] = v;
        }
        return out;
    }

    private Storage persistent(Object pid) {
        if (!(pid instanceof Tuple t) || t.items().size() != 5 || !"storage".equals(t.items().get(0))) {
            throw refuse("persistent id " + describe(pid) + " (expected ('storage', type, key, location, numel))");
        }
        List<Object> p = t.items();
        if (!(p.get(1) instanceof Global g) || !STORAGES.containsKey(g.name())) throw refuse("storage type " + describe(p.get(1)));
        if (!(p.get(2) instanceof String key) || !(p.get(4) instanceof Long numel) || numel < 0) throw fault("malformed storage id " + describe(pid));
        DType dtype = STORAGES.get(g.name());
        Long have = storageBytes.get(key);
        if (have == null) throw fault("storage data/" + key + " is not in the archive");
        long want = Math.multiplyExact(numel, (long) dtype.sizeBytes());
        if (have != want) throw fault("storage data/" + key + " holds " + have + " bytes, its id claims " + numel + " x " + g.name());
        return new Storage(key, dtype, numel);
    }

    private static String describe(Object o) {
        if (o instanceof Global g) return g.qualified();
        if (o == None.NONE || o == null) return "None";
        if (o instanceof Mark) return "a MARK";
        if (o instanceof Map<?, ?>) return "a dict";
        if (o instanceof List<?>) return "a list";
        if (o instanceof Tuple t) return "a " + t.items().size() + "-tuple";
        if (o instanceof String s) return "'" + (s.length() > 40 ? s.substring(0, 40) + "..." : s) + "'";
        if (o instanceof TensorRef) return "a tensor";
        if (o instanceof ScriptObject so) return "an object of " + so.type();
        if (o instanceof Storage) return "a storage";
        return o.getClass().getSimpleName().toLowerCase(Locale.ROOT) + " " + o;
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(Object o) {
        return (List<Object>) o;
    }

    @SuppressWarnings("unchecked")
    private Map<Object, Object> dict(Object o, String op) {
        if (!(o instanceof Map<?, ?>)) throw refuse(op + " on " + describe(o));
        return (Map<Object, Object>) o;
    }

    private void setItems(Map<Object, Object> m, List<Object> items) {
        if (items.size() % 2 != 0) throw fault("odd number of dict items");
        for (int i = 0; i < items.size(); i += 2) {
            Object k = items.get(i);
            if (k instanceof Map<?, ?> || k instanceof List<?> || k instanceof byte[] || k instanceof Mark) throw fault("unhashable dict key " + describe(k));
            m.put(k, items.get(i + 1));
        }
    }

    private void push(Object o) {
        stack.add(o);
    }

    private Object pop() {
        if (stack.isEmpty()) throw fault("stack underflow");
        Object o = stack.remove(stack.size() - 1);
        if (o == Mark.MARK) throw fault("MARK where a value was expected");
        return o;
    }

    private Object peek() {
        if (stack.isEmpty()) throw fault("stack underflow");
        return stack.get(stack.size() - 1);
    }

    private List<Object> popMark() {
        int k = stack.lastIndexOf(Mark.MARK);
        if (k < 0) throw fault("no MARK on the stack");
        List<Object> items = new ArrayList<>(stack.subList(k + 1, stack.size()));
        stack.subList(k, stack.size()).clear();
        return items;
    }

    private Object firstAfterMark() {
        int k = stack.lastIndexOf(Mark.MARK);
        return k < 0 || k + 1 >= stack.size() ? null : stack.get(k + 1);
    }

    private Object get(long index) {
        Object o = memo.get(index);
        if (o == null) throw fault("memo " + index + " was never stored");
        return o;
    }

    private void need(long n) {
        if (n < 0 || n > bytes.byteSize() - pos) throw fault("needs " + n + " bytes, " + (bytes.byteSize() - pos) + " are left");
    }

    private void skip(long n) {
        need(n);
        pos += n;
    }

    private int u8() {
        need(1);
        return bytes.get(ValueLayout.JAVA_BYTE, pos++) & 0xff;
    }

    private int u16() {
        need(2);
        int v = bytes.get(LittleEndian.I16, pos) & 0xffff;
        pos += 2;
        return v;
    }

    private int i32() {
        need(4);
        int v = bytes.get(LittleEndian.I32, pos);
        pos += 4;
        return v;
    }

    private long u32() {
        return i32() & 0xffffffffL;
    }

    private long u64() {
        need(8);
        long v = bytes.get(LittleEndian.I64, pos);
        pos += 8;
        return v;
    }

    private int checkedLength(long n, String what) {
        if (n < 0 || n > bytes.byteSize() - pos || n > Integer.MAX_VALUE - 8) throw fault(what + " claims " + Long.toUnsignedString(n) + " bytes");
        return (int) n;
    }

    private long longN(int n) {
        if (n > 8) throw fault("integer of " + n + " bytes");
        need(n);
        long v = 0;
        for (int i = 0; i < n; i++) v |= (bytes.get(ValueLayout.JAVA_BYTE, pos + i) & 0xffL) << (8 * i);
        if (n > 0 && n < 8 && (v & (1L << (8 * n - 1))) != 0) v |= -1L << (8 * n);
        pos += n;
        return v;
    }

    private byte[] raw(int n) {
        need(n);
        byte[] b = bytes.asSlice(pos, n).toArray(ValueLayout.JAVA_BYTE);
        pos += n;
        return b;
    }

    private String utf8(int n) {
        return new String(raw(n), StandardCharsets.UTF_8);
    }

    private String latin1(int n) {
        return new String(raw(n), StandardCharsets.ISO_8859_1);
    }

    private String line() {
        long start = pos;
        long limit = Math.min(bytes.byteSize(), pos + 4096);
        while (pos < limit && bytes.get(ValueLayout.JAVA_BYTE, pos) != '\n') pos++;
        if (pos >= limit) throw fault("text argument without a newline within 4096 bytes");
        String s = new String(bytes.asSlice(start, pos - start).toArray(ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8);
        pos++;
        return s;
    }

    private long decimal(String s) {
        try {
            return Long.parseLong(s.trim());
        } catch (NumberFormatException e) {
            throw fault("bad integer '" + s + "'");
        }
    }

    private String quoted(String s) {
        if (s.length() >= 2 && (s.charAt(0) == '\'' || s.charAt(0) == '"') && s.charAt(s.length() - 1) == s.charAt(0)) return s.substring(1, s.length() - 1);
        throw fault("bad STRING argument");
    }
}
