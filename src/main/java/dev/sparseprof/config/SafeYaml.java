package dev.sparseprof.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.api.lowlevel.Parse;
import org.snakeyaml.engine.v2.events.Event;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.schema.CoreSchema;

/**
 * YAML text to a plain tree of {@code Map<String, Object>}, {@code List<Object>} and {@code String},
 * loaded defensively.
 *
 * <p>Safety: at most {@value #MAX_ALIASES} aliases to collections (a 1 KB "billion laughs"
 * document is refused, not expanded), no recursive keys, no duplicate keys, at most
 * {@link ConfigSource#MAX_CHARS} code points, the YAML 1.2 core schema (no {@code yes}/{@code no}
 * booleans), no environment substitution, no custom tags, mappings and sequences nested at most
 * {@value #MAX_DEPTH} deep (checked on the parser's events, which need no recursion, before the
 * recursive composer runs: a deep document is one line, not a {@code StackOverflowError}). Every scalar is then turned back into its
 * string, so the binder parses numbers with their units itself; an empty value is null (missing).
 */
public final class SafeYaml {
    static final int MAX_ALIASES = 10;
    static final int MAX_DEPTH = 64;

    private SafeYaml() {}

    /** Parses one document; an empty document is an empty map. */
    public static Map<String, Object> parse(ConfigSource source) {
        LoadSettings settings = LoadSettings.builder()
                .setLabel(source.name())
                .setMaxAliasesForCollections(MAX_ALIASES)
                .setAllowRecursiveKeys(false)
                .setAllowDuplicateKeys(false)
                .setCodePointLimit(ConfigSource.MAX_CHARS)
                .setSchema(new CoreSchema())
                .build();
        Object tree;
        try {
            checkDepth(source, settings);
            tree = new Load(settings).loadFromString(source.text());
        } catch (StackOverflowError e) {
            throw new ConfigException(source.shortName() + ": refused: nested too deep to read");
        } catch (MarkedYamlEngineException e) {
            String where = e.getProblemMark().map(m -> " at line " + (m.getLine() + 1) + ", column " + (m.getColumn() + 1)).orElse("");
            throw new ConfigException(source.shortName() + ": not valid YAML" + where + ": " + oneLine(e.getProblem()), e);
        } catch (YamlEngineException e) {
            throw new ConfigException(source.shortName() + ": refused: " + oneLine(e.getMessage()), e);
        }
        if (tree == null) return Map.of();
        if (!(tree instanceof Map<?, ?> map)) {
            throw new ConfigException(source.shortName() + ": the document must be a mapping of keys to values");
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> root = (Map<String, Object>) plain(source, map, "");
        return root;
    }

    /** Refuses a document whose mappings and sequences nest deeper than {@link #MAX_DEPTH}, from the parser's flat event stream. */
    private static void checkDepth(ConfigSource source, LoadSettings settings) {
        int depth = 0;
        for (Event e : new Parse(settings).parseString(source.text())) {
            switch (e.getEventId()) {
                case MappingStart, SequenceStart -> {
                    if (++depth > MAX_DEPTH) {
                        String where = e.getStartMark().map(m -> " at line " + (m.getLine() + 1) + ", column " + (m.getColumn() + 1)).orElse("");
                        throw new ConfigException(source.shortName() + ": refused: mappings and sequences nested deeper than " + MAX_DEPTH + where);
                    }
                }
                case MappingEnd, SequenceEnd -> depth--;
                default -> { }
            }
        }
    }

    /** A copy in which every map is string-keyed, every scalar a string (null stays null). */
    private static Object plain(ConfigSource source, Object node, String path) {
        if (node instanceof Map<?, ?> map) {
            Map<String, Object> out = new LinkedHashMap<>();
            for (Map.Entry<?, ?> e : map.entrySet()) {
                if (!(e.getKey() instanceof String key)) {
                    throw new ConfigException(source.shortName() + ": " + path + ": keys must be plain names, got " + e.getKey());
                }
                out.put(key, plain(source, e.getValue(), path.isEmpty() ? key : path + "." + key));
            }
            return out;
        }
        if (node instanceof List<?> list) {
            List<Object> out = new ArrayList<>(list.size());
            for (int i = 0; i < list.size(); i++) out.add(plain(source, list.get(i), path + "[" + i + "]"));
            return out;
        }
        if (node == null || node instanceof String) return node;
        if (node instanceof Number || node instanceof Boolean) return node.toString();
        throw new ConfigException(source.shortName() + ": " + path + ": unsupported value type " + node.getClass().getSimpleName());
    }

    private static String oneLine(String s) {
        return s == null ? "" : s.replace('\n', ' ').trim();
    }
}
