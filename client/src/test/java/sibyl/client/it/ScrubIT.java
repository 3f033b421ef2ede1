package sibyl.client.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.Column;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.ColumnParent;
import org.apache.cassandra.thrift.ColumnPath;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.apache.cassandra.thrift.InvalidRequestException;
import org.apache.cassandra.thrift.KeyRange;
import org.apache.cassandra.thrift.KeySlice;
import org.apache.cassandra.thrift.Mutation;
import org.apache.cassandra.thrift.NotFoundException;
import org.apache.cassandra.thrift.SlicePredicate;
import org.apache.cassandra.thrift.SliceRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A damaged data file as an operator meets it: bytes flipped in three rows of an SSTable of a
 * running node. Thrift reads of those rows, and scans over them, answer an InvalidRequestException
 * naming the column family and the damage and pointing at scrub; every other row reads; the node
 * logs each damaged block once, however often it is read. {@code bin/nodetool scrub} then reports
 * exactly three rows dropped, every other row reads back (also after a restart), and the damaged
 * file is kept in a snapshot. Which rows the flipped bytes belong to is read from the index file as
 * io/FORMAT.md describes it.
 */
class ScrubIT {
    private static final String KS = "Keyspace1";
    private static final String CF = "Standard1";
    private static final int ROWS = 300;
    private static final Pattern REPORT = Pattern.compile(
            "Keyspace1\\.Standard1: (\\d+) rows kept, (\\d+) rows dropped, 1 sstables rewritten; the originals are in"
                    + " snapshot (\\d+-pre-scrub-Standard1)");

    @TempDir
    Path dir;

    private record Row(String key, long dataOffset, int rowLength) {
    }

    /** The index file's entries: key (modified UTF-8), data offset, row length, checksum. */
    private static List<Row> rows(Path index) throws Exception {
        List<Row> rows = new ArrayList<>();
        try (InputStream file = Files.newInputStream(index);
             DataInputStream in = new DataInputStream(new BufferedInputStream(file))) {
            while (true) {
                String key;
                try {
                    key = in.readUTF();
                } catch (EOFException end) {
                    return rows;
                }
                rows.add(new Row(key, in.readLong(), in.readInt()));
                in.readInt();
            }
        }
    }

    private static void flip(Path file, long position) throws Exception {
        try (FileChannel c = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer one = ByteBuffer.allocate(1);
            c.read(one, position);
            one.put(0, (byte) (one.get(0) ^ 0x5a));
            c.write(one.flip(), position);
        }
    }

    private static ByteBuffer bytes(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }

    private static String value(String key) {
        return "value of " + key;
    }

    private static final SlicePredicate ALL = new SlicePredicate().setSlice_range(
            new SliceRange(ByteBuffer.allocate(0), ByteBuffer.allocate(0), false, 100));

    private static List<KeySlice> scan(Cassandra.Client client, int count) throws Exception {
        return client.get_range_slices(KS, new ColumnParent(CF), ALL, new KeyRange(count).setStart_key("").setEnd_key(""),
                ConsistencyLevel.ONE);
    }

    /** Every key but the damaged ones reads back whole; the damaged ones are gone. */
    private static void assertScrubbed(LocalNode node, List<Row> rows, Set<String> damaged) throws Exception {
        Cassandra.Client client = node.client();
        try {
            for (Row row : rows) {
                ColumnPath path = new ColumnPath(CF).setColumn(bytes("c"));
                if (damaged.contains(row.key())) {
                    assertThrows(NotFoundException.class, () -> client.get(KS, row.key(), path, ConsistencyLevel.ONE));
                } else {
                    Column c = client.get(KS, row.key(), path, ConsistencyLevel.ONE).getColumn();
                    assertEquals(value(row.key()), new String(c.getValue(), StandardCharsets.UTF_8));
                }
            }
            List<KeySlice> all = scan(client, ROWS + 10);
            assertEquals(ROWS - damaged.size(), all.size());
            for (KeySlice row : all) assertFalse(damaged.contains(row.getKey()), row.getKey());
        } finally {
            LocalNode.close(client);
        }
    }

    @Test
    void readsOfDamagedRowsSaySoAndScrubDropsExactlyThem() throws Exception {
        LocalNode node = new LocalNode(dir);
        node.start("node-1");
        Path data;
        List<Row> rows;
        Set<String> damaged = new TreeSet<>();
        byte[] damagedFile;
        try {
            Cassandra.Client client = node.client();
            try {
                Map<String, Map<String, List<Mutation>>> batch = new HashMap<>();
                for (int i = 0; i < ROWS; i++) {
                    String key = "key" + i;
                    batch.put(key, Map.of(CF, List.of(new Mutation().setColumn_or_supercolumn(new ColumnOrSuperColumn()
                            .setColumn(new Column(bytes("c"), bytes(value(key)), 1))))));
                }
                client.batch_mutate(KS, batch, ConsistencyLevel.ONE);
            } finally {
                LocalNode.close(client);
            }
            assertEquals(0, node.nodetool("flush", KS, CF).status());
            Path ksDir = node.data().resolve(KS);
            try (Stream<Path> files = Files.list(ksDir)) {
                List<Path> dataFiles = files.filter(f -> f.getFileName().toString().matches(CF + "-\\d+-Data\\.db")).toList();
                assertEquals(1, dataFiles.size(), dataFiles.toString());
                data = dataFiles.get(0);
            }
            rows = rows(Path.of(data.toString().replace("-Data.db", "-Index.db")));
            assertEquals(ROWS, rows.size());
            // Small rows of one block each: the byte in the middle of a row is in its header or its block.
            for (int i : new int[] {7, 150, 151}) {
                flip(data, rows.get(i).dataOffset() + rows.get(i).rowLength() / 2);
                damaged.add(rows.get(i).key());
            }
            damagedFile = Files.readAllBytes(data);

            Cassandra.Client reader = node.client();
            try {
                for (int round = 0; round < 3; round++) {
                    for (String key : damaged) {
                        InvalidRequestException e = assertThrows(InvalidRequestException.class, () -> reader.get(KS, key,
                                new ColumnPath(CF).setColumn(bytes("c")), ConsistencyLevel.ONE));
                        assertTrue(e.getWhy().matches("a data file of Keyspace1\\.Standard1 is damaged \\("
                                + Pattern.quote(data.getFileName().toString()) + " at offset \\d+: (row header|data block)"
                                + " checksum mismatch\\); the rows stored there cannot be read until an operator runs nodetool"
                                + " scrub Keyspace1 Standard1"), e.getWhy());
                        assertThrows(InvalidRequestException.class, () -> reader.get_slice(KS, key, new ColumnParent(CF),
                                ALL, ConsistencyLevel.ONE));
                    }
                }
                InvalidRequestException scanFailed = assertThrows(InvalidRequestException.class, () -> scan(reader, ROWS));
                assertTrue(scanFailed.getWhy().startsWith("a data file of Keyspace1.Standard1 is damaged"),
                        scanFailed.getWhy());
                // The connection is as good as before, and the rows before the first damaged one scan.
                assertEquals(7, scan(reader, 7).size());
                for (Row row : rows) {
                    if (damaged.contains(row.key())) continue;
                    assertEquals(1, reader.get_slice(KS, row.key(), new ColumnParent(CF), ALL, ConsistencyLevel.ONE).size());
                }
            } finally {
                LocalNode.close(reader);
            }
            String console = node.console();
            List<String> logged = console.lines().filter(l -> l.contains("Damaged data in Keyspace1.Standard1")).toList();
            assertEquals(3, logged.size(), "one line per damaged block, however often it is read:\n" + console);
            assertFalse(console.contains("Internal error") || console.contains("\n\tat "), "no stack trace:\n" + console);

            LocalNode.Result scrub = node.nodetool("scrub", KS, CF);
            assertEquals(0, scrub.status(), scrub.output());
            Matcher report = REPORT.matcher(scrub.output());
            assertTrue(report.find(), scrub.output());
            assertEquals(ROWS - 3, Integer.parseInt(report.group(1)), scrub.output());
            assertEquals(3, Integer.parseInt(report.group(2)), scrub.output());
            Path original = ksDir.resolve("snapshots").resolve(report.group(3)).resolve(data.getFileName());
            assertArrayEquals(damagedFile, Files.readAllBytes(original), "the damaged original is kept in the snapshot");
            assertScrubbed(node, rows, damaged);

            LocalNode.Result again = node.nodetool("scrub");
            assertEquals(0, again.status(), again.output());
            assertTrue(again.output().contains("Keyspace1.Standard1: " + (ROWS - 3) + " rows kept, 0 rows dropped"),
                    again.output());
            assertTrue(again.output().contains("Keyspace1.Super1: no sstables to scrub"), again.output());

            LocalNode.Result unknown = node.nodetool("scrub", "NoSuchKeyspace");
            assertEquals(1, unknown.status(), unknown.output());
            assertEquals("nodetool: scrub failed: Keyspace NoSuchKeyspace does not exist in this schema.\n",
                    unknown.output());
        } finally {
            node.stop();
        }
        node.start("node-2");
        try {
            assertScrubbed(node, rows, damaged);
        } finally {
            node.stop();
        }
    }
}
