package sibyl.client.it;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.Column;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.ColumnParent;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.apache.cassandra.thrift.KeyRange;
import org.apache.cassandra.thrift.KeySlice;
import org.apache.cassandra.thrift.SlicePredicate;
import org.apache.cassandra.thrift.SliceRange;
import org.apache.cassandra.thrift.SuperColumn;

/**
 * One of the Cassandra 0.6 node directories under {@code server/src/test/resources/c06/} (their README says how
 * each was made): the node's data and commit log directories as it left them, its storage-conf.xml, and the
 * answers it gave just before it stopped ({@code expected/}), in a line format this class writes answers in too.
 */
final class Cassandra06Fixture {
    private static final HexFormat HEX = HexFormat.of();
    private final String name;
    private final Path root;

    Cassandra06Fixture(String name) {
        this.name = name;
        this.root = LocalNode.home().resolve("server/src/test/resources/c06").resolve(name);
    }

    String name() {
        return name;
    }

    /** The node's storage-conf.xml as it ran. */
    String storageConf() throws IOException {
        return Files.readString(root.resolve("storage-conf.xml"));
    }

    /** Copies the node's data and commit log directories to where {@code node}'s configuration points. */
    void copyInto(Path dataDirectory, Path commitLogDirectory) throws IOException {
        copyTree(root.resolve("data"), dataDirectory);
        copyTree(root.resolve("commitlog"), commitLogDirectory);
    }

    private static void copyTree(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        if (!Files.exists(from)) return; // git keeps no empty directory: a drained node's commit log
        try (Stream<Path> files = Files.walk(from)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Path target = to.resolve(from.relativize(f).toString());
                if (Files.isDirectory(f)) Files.createDirectories(target);
                else Files.copy(f, target, StandardCopyOption.COPY_ATTRIBUTES);
            }
        }
    }

    String token() throws IOException {
        return Files.readString(root.resolve("expected/token.txt")).trim();
    }

    /** The column families with a range answer: {@code Keyspace.ColumnFamily} to the answer's lines. */
    Map<String, String> rangeAnswers() throws IOException {
        Map<String, String> answers = new TreeMap<>();
        try (Stream<Path> files = Files.list(root.resolve("expected"))) {
            for (Path f : (Iterable<Path>) files::iterator) {
                String file = f.getFileName().toString();
                if (file.endsWith(".txt") && file.indexOf('.') < file.length() - 4) {
                    answers.put(file.substring(0, file.length() - 4), Files.readString(f));
                }
            }
        }
        return answers;
    }

    /** The get_slice queries and their answers: each a {@code Q ...} line and the lines after it. */
    List<String> sliceAnswers() throws IOException {
        Path file = root.resolve("expected/slices.txt");
        List<String> queries = new ArrayList<>();
        if (!Files.exists(file)) return queries;
        StringBuilder current = null;
        for (String line : Files.readAllLines(file)) {
            if (line.startsWith("Q ")) {
                if (current != null) queries.add(current.toString());
                current = new StringBuilder();
            }
            if (current != null) current.append(line).append('\n');
        }
        if (current != null) queries.add(current.toString());
        return queries;
    }

    /** Every file of the fixture's data and commit log with a checksum of its bytes, by path relative to {@code top}. */
    static Map<String, Long> checksums(Path top) throws IOException {
        Map<String, Long> sums = new TreeMap<>();
        try (Stream<Path> files = Files.walk(top)) {
            for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                CRC32 crc = new CRC32();
                crc.update(Files.readAllBytes(f));
                sums.put(top.relativize(f).toString(), crc.getValue());
            }
        }
        return sums;
    }

    // ---- answers in the fixtures' line format

    /** The whole column family through get_range_slices, paged as clients page, in the fixtures' format. */
    static String rangeAnswer(Cassandra.Client client, String keyspace, String columnFamily) throws Exception {
        SlicePredicate all = new SlicePredicate().setSlice_range(new SliceRange(ByteBuffer.allocate(0),
                ByteBuffer.allocate(0), false, 1_000_000));
        StringBuilder out = new StringBuilder();
        String start = "";
        boolean first = true;
        while (true) {
            KeyRange range = new KeyRange(100).setStart_key(start).setEnd_key("");
            List<KeySlice> page = client.get_range_slices(keyspace, new ColumnParent(columnFamily), all, range,
                    ConsistencyLevel.ONE);
            int from = first ? 0 : 1;
            for (int i = from; i < page.size(); i++) {
                KeySlice row = page.get(i);
                out.append("R ").append(hex(row.getKey().getBytes(java.nio.charset.StandardCharsets.UTF_8)))
                        .append('\n');
                append(out, row.getColumns());
            }
            if (page.size() < 100) return out.toString();
            start = page.get(page.size() - 1).getKey();
            first = false;
        }
    }

    /** The answer to one {@code Q} line of slices.txt, with that line first. */
    static String sliceAnswer(Cassandra.Client client, String query) throws Exception {
        String q = query.substring(0, query.indexOf('\n'));
        String[] parts = q.split(" ");
        Map<String, String> args = new TreeMap<>();
        for (int i = 3; i < parts.length; i++) {
            int eq = parts[i].indexOf('=');
            args.put(parts[i].substring(0, eq), parts[i].substring(eq + 1));
        }
        ColumnParent parent = new ColumnParent(parts[2]);
        if (!args.get("super").equals("-")) parent.setSuper_column(HEX.parseHex(args.get("super")));
        SlicePredicate predicate = new SlicePredicate().setSlice_range(new SliceRange(
                ByteBuffer.wrap(HEX.parseHex(args.get("start"))), ByteBuffer.wrap(HEX.parseHex(args.get("finish"))),
                Boolean.parseBoolean(args.get("reversed")), Integer.parseInt(args.get("count"))));
        String key = new String(HEX.parseHex(args.get("key")), java.nio.charset.StandardCharsets.UTF_8);
        StringBuilder out = new StringBuilder(q).append('\n');
        append(out, client.get_slice(parts[1], key, parent, predicate, ConsistencyLevel.ONE));
        return out.toString();
    }

    private static void append(StringBuilder out, List<ColumnOrSuperColumn> cells) {
        for (ColumnOrSuperColumn cell : cells) {
            if (cell.isSetSuper_column()) {
                SuperColumn sc = cell.getSuper_column();
                out.append("S ").append(hex(sc.getName())).append('\n');
                for (Column c : sc.getColumns()) out.append("  ").append(column(c)).append('\n');
            } else {
                out.append(column(cell.getColumn())).append('\n');
            }
        }
    }

    private static String column(Column c) {
        return "C " + hex(c.getName()) + " " + hex(c.getValue()) + " " + c.getTimestamp();
    }

    private static String hex(byte[] bytes) {
        return HEX.formatHex(bytes);
    }
}
