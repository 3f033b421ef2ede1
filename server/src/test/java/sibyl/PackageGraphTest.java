package sibyl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The server's packages depend on each other in one direction only, and no cycle: the front end
 * (transport, thrift) on the service seam; each backend (the embedded engine, the cluster backend) on
 * the seam and the data model (db), never on each other; the engine on its files (io) and on the
 * interfaces it declares for its log, which the commit log does not know: the node's composition root
 * ({@code sibyl.SibylNode}) joins the two. Everything that stores data depends on the data model, which
 * depends on nothing above it.
 *
 * <p>Dependencies are read from the main sources: every reference to a {@code sibyl.} class in
 * code (imports and qualified names), comments and string literals left out.
 */
class PackageGraphTest {
    private static final Path SOURCES = Path.of("src/main/java");
    /** Strings as "unrolled loops" ({@code "[^"\\]*(?:\\.[^"\\]*)*"}): an alternation repeated per character recursed
     * once per character and overflowed the stack on a long text block. */
    private static final Pattern COMMENT_OR_STRING =
            Pattern.compile("/\\*.*?\\*/|//[^\\n]*|\"[^\"\\\\]*(?:\\\\.[^\"\\\\]*)*\"|'[^'\\\\]*(?:\\\\.[^'\\\\]*)*'",
                    Pattern.DOTALL);
    private static final Pattern PACKAGE = Pattern.compile("^package\\s+([\\w.]+);", Pattern.MULTILINE);
    private static final Pattern REFERENCE = Pattern.compile("\\b(sibyl(?:\\.[a-z]\\w*)*)\\.[A-Z]");

    private static Map<String, Set<String>> graph;

    @BeforeAll
    static void readSources() throws IOException {
        graph = new TreeMap<>();
        try (Stream<Path> files = Files.walk(SOURCES)) {
            for (Path file : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".java"))::iterator) {
                String code = COMMENT_OR_STRING.matcher(Files.readString(file)).replaceAll(" ");
                Matcher pkg = PACKAGE.matcher(code);
                if (!pkg.find()) continue;
                Set<String> uses = graph.computeIfAbsent(pkg.group(1), p -> new TreeSet<>());
                Matcher ref = REFERENCE.matcher(code);
                while (ref.find()) {
                    if (!ref.group(1).equals(pkg.group(1))) uses.add(ref.group(1));
                }
            }
        }
        assertTrue(graph.size() > 10, "found the server's packages under " + SOURCES.toAbsolutePath());
    }

    @Test
    void packagesFormNoCycle() {
        List<List<String>> cycles = new ArrayList<>();
        for (String start : graph.keySet()) {
            List<String> path = cycleThrough(start, start, new ArrayList<>(List.of(start)), new TreeSet<>());
            if (path != null) cycles.add(path);
        }
        assertEquals(List.of(), cycles, "package cycles (each listed from each of its members)");
    }

    @Test
    void theDataModelDependsOnNothingAboveIt() {
        assertUsesOnly("sibyl.db", "sibyl.db.marshal", "sibyl.dht");
        assertUsesOnly("sibyl.db.marshal");
        assertUsesOnly("sibyl.dht");
    }

    @Test
    void filesAndLogSitBelowTheEngine() {
        assertUsesOnly("sibyl.io", "sibyl.db", "sibyl.db.marshal", "sibyl.dht", "sibyl.fs");
        assertUsesOnly("sibyl.commitlog", "sibyl.db", "sibyl.db.marshal", "sibyl.dht", "sibyl.config", "sibyl.fs");
    }

    @Test
    void theEngineAndTheCommitLogKnowNothingOfEachOther() {
        assertTrue(!graph.getOrDefault("sibyl.engine", Set.of()).contains("sibyl.commitlog"),
                "sibyl.engine uses sibyl.commitlog: " + graph.get("sibyl.engine"));
        assertTrue(!graph.getOrDefault("sibyl.commitlog", Set.of()).contains("sibyl.engine"),
                "sibyl.commitlog uses sibyl.engine: " + graph.get("sibyl.commitlog"));
    }

    /** Each component builds its own settings from the loaded configuration, which knows none of them. */
    @Test
    void theConfigurationIsALeaf() {
        assertUsesOnly("sibyl.config");
    }

    /** Directory syncing is shared by everything that writes files, so it may know none of them. */
    @Test
    void theFileSystemHabitsAreALeaf() {
        assertUsesOnly("sibyl.fs");
    }

    @Test
    void theServiceSeamKnowsNoBackend() {
        assertUsesOnly("sibyl.service", "sibyl.config", "sibyl.db", "sibyl.db.marshal", "sibyl.dht", "sibyl.fs");
    }

    @Test
    void theMetricsFormatAndServerStandAlone() {
        // What the node's parts count is named in sibyl.metrics.node; the exposition and its HTTP server know
        // nothing of the server, so any part (or another backend) can be exposed through them.
        assertUsesOnly("sibyl.metrics");
    }

    @Test
    void theClusterBackendStandsBesideTheEngineNotOnIt() {
        assertUsesOnly("sibyl.cluster", "sibyl.service", "sibyl.config", "sibyl.db", "sibyl.db.marshal", "sibyl.dht");
    }

    @Test
    void theThriftHandlerTalksToTheServiceOnly() {
        Set<String> uses = graph.get("sibyl.thrift");
        for (String below : List.of("sibyl.engine", "sibyl.io", "sibyl.commitlog")) {
            assertTrue(!uses.contains(below), "sibyl.thrift uses " + below + ": " + uses);
        }
    }

    /**
     * The 0.7+ dialect builds on the dialect-neutral pieces of the 0.6 one (its call table, sessions, row requests)
     * and, like it, talks to the service seam only; the 0.6 dialect knows nothing of it.
     */
    @Test
    void theSecondDialectStandsOnTheFirstAndTheSeam() {
        assertUsesOnly("sibyl.thrift20", "sibyl.thrift", "sibyl.iface.v20", "sibyl.service", "sibyl.transport",
                "sibyl.auth", "sibyl.db", "sibyl.db.marshal", "sibyl.dht");
        assertTrue(!graph.get("sibyl.thrift").contains("sibyl.thrift20"),
                "sibyl.thrift uses sibyl.thrift20: " + graph.get("sibyl.thrift"));
    }

    /** The offline tools use the storage classes as the node does; nothing of the node uses them. */
    @Test
    void nothingDependsOnTheTools() {
        for (Map.Entry<String, Set<String>> e : graph.entrySet()) {
            assertTrue(!e.getValue().contains("sibyl.tools"), e.getKey() + " uses sibyl.tools");
        }
        assertTrue(!graph.getOrDefault("sibyl.tools", Set.of()).contains("sibyl.engine"),
                "the tools work on files, not through a node's engine: " + graph.get("sibyl.tools"));
    }

    private static void assertUsesOnly(String pkg, String... allowed) {
        Set<String> uses = new TreeSet<>(graph.getOrDefault(pkg, Set.of()));
        uses.removeAll(Set.of(allowed));
        assertEquals(Set.of(), uses, pkg + " may use only " + List.of(allowed));
    }

    /** A path from {@code at} back to {@code start}, or null; {@code seen} keeps the search finite. */
    private static List<String> cycleThrough(String start, String at, List<String> path, Set<String> seen) {
        for (String next : graph.getOrDefault(at, Set.of())) {
            if (next.equals(start)) {
                List<String> cycle = new ArrayList<>(path);
                cycle.add(start);
                return cycle;
            }
            if (seen.add(next)) {
                path.add(next);
                List<String> found = cycleThrough(start, next, path, seen);
                if (found != null) return found;
                path.remove(path.size() - 1);
            }
        }
        return null;
    }
}
