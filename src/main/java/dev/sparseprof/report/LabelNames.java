package dev.sparseprof.report;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * Short chart labels for layer names: the path prefix and suffix all names share are dropped
 * ({@code /encoder/layer.0/attention/self/query/MatMul} becomes {@code layer.0/attention/self/query}),
 * unless that would make two labels equal.
 */
final class LabelNames {
    private LabelNames() {}

    static List<String> shorten(List<String> names) {
        if (names.size() < 2) return List.copyOf(names);
        String first = names.get(0);
        int prefix = first.length();
        int suffix = first.length();
        for (String n : names) {
            prefix = Math.min(prefix, commonPrefix(first, n));
            suffix = Math.min(suffix, commonSuffix(first, n));
        }
        // Cut at path separators only, so a label never starts or ends mid-word.
        int p = first.lastIndexOf('/', Math.max(0, prefix - 1)) + 1;
        List<String> out = new ArrayList<>(names.size());
        for (String n : names) {
            int s = n.length() - suffix;
            int cut = n.indexOf('/', Math.max(p, s));
            int end = cut < 0 || cut <= p ? n.length() : cut;
            out.add(n.substring(Math.min(p, end), end));
        }
        return new LinkedHashSet<>(out).size() == out.size() ? out : List.copyOf(names);
    }

    private static int commonPrefix(String a, String b) {
        int i = 0;
        while (i < a.length() && i < b.length() && a.charAt(i) == b.charAt(i)) i++;
        return i;
    }

    private static int commonSuffix(String a, String b) {
        int i = 0;
        while (i < a.length() && i < b.length() && a.charAt(a.length() - 1 - i) == b.charAt(b.length() - 1 - i)) i++;
        return i;
    }
}
