package sibyl.client.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.Column;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.ColumnParent;
import org.apache.cassandra.thrift.ColumnPath;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.apache.cassandra.thrift.Deletion;
import org.apache.cassandra.thrift.KeyRange;
import org.apache.cassandra.thrift.KeySlice;
import org.apache.cassandra.thrift.Mutation;
import org.apache.cassandra.thrift.SlicePredicate;
import org.apache.cassandra.thrift.SliceRange;
import org.apache.cassandra.thrift.SuperColumn;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A backup and a restore as README describes them: rows written through Thrift (some flushed, some
 * only in the memtables, some columns, super columns and rows deleted), {@code bin/nodetool
 * snapshot}, more writes, deletes and a compaction after it, then the node stopped, README's
 * restore commands run as written, the node started again: every row reads back exactly as it was
 * when the snapshot was taken, and nothing written after it. Then {@code clearsnapshot} removes it.
 */
class SnapshotRestoreIT {
    private static final String KS = "Keyspace1";
    private static final long TS = 1_000;

    @TempDir
    Path dir;

    private static ByteBuffer bytes(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }

    private static String text(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    private static Mutation put(String name, String value, long ts) {
        return new Mutation().setColumn_or_supercolumn(new ColumnOrSuperColumn()
                .setColumn(new Column(bytes(name), bytes(value), ts)));
    }

    private static Mutation putSuper(String superColumn, String name, String value, long ts) {
        return new Mutation().setColumn_or_supercolumn(new ColumnOrSuperColumn().setSuper_column(
                new SuperColumn(bytes(superColumn), List.of(new Column(bytes(name), bytes(value), ts)))));
    }

    private static Mutation delete(String name, long ts) {
        return new Mutation().setDeletion(new Deletion(ts).setPredicate(new SlicePredicate()
                .setColumn_names(List.of(bytes(name)))));
    }

    /** Writes rows {@code from} to {@code to} (exclusive) of both column families, deleting some of what it wrote. */
    private static void writeRows(Cassandra.Client client, int from, int to, String value, long ts) throws Exception {
        Map<String, Map<String, List<Mutation>>> batch = new HashMap<>();
        for (int i = from; i < to; i++) {
            List<Mutation> std = new ArrayList<>();
            for (int c = 0; c < 3; c++) std.add(put("c" + c, value + "-" + i + "-" + c, ts));
            if (i % 10 == 0) std.add(delete("c1", ts + 1));
            List<Mutation> sup = new ArrayList<>();
            for (String sc : List.of("s0", "s1")) {
                sup.add(putSuper(sc, "a", value + "-" + i + "-" + sc + "a", ts));
                sup.add(putSuper(sc, "b", value + "-" + i + "-" + sc + "b", ts));
            }
            batch.put(String.format("row-%03d", i), Map.of("Standard1", std, "Super1", sup));
        }
        client.batch_mutate(KS, batch, ConsistencyLevel.ONE);
        for (int i = from; i < to; i++) {
            String key = String.format("row-%03d", i);
            if (i % 25 == 0) client.remove(KS, key, new ColumnPath("Standard1"), ts + 2, ConsistencyLevel.ONE);
            if (i % 5 == 0) {
                client.remove(KS, key, new ColumnPath("Super1").setSuper_column(bytes("s1")), ts + 2, ConsistencyLevel.ONE);
            }
        }
    }

    /** Everything both column families hold, by range scan and by point reads, as text. */
    private static Map<String, String> contents(Cassandra.Client client) throws Exception {
        Map<String, String> all = new TreeMap<>();
        SlicePredicate everything = new SlicePredicate().setSlice_range(
                new SliceRange(ByteBuffer.allocate(0), ByteBuffer.allocate(0), false, 1000));
        for (String cf : List.of("Standard1", "Super1")) {
            List<KeySlice> rows = client.get_range_slices(KS, new ColumnParent(cf), everything,
                    new KeyRange(10_000).setStart_key("").setEnd_key(""), ConsistencyLevel.ONE);
            for (KeySlice row : rows) {
                if (row.getColumnsSize() == 0) continue; // a deleted row's ghost
                String scanned = render(row.getColumns());
                String read = render(client.get_slice(KS, row.getKey(), new ColumnParent(cf), everything,
                        ConsistencyLevel.ONE));
                assertEquals(scanned, read, "scan and point read of " + cf + "/" + row.getKey());
                all.put(cf + "/" + row.getKey(), scanned);
            }
        }
        return all;
    }

    private static String render(List<ColumnOrSuperColumn> cells) {
        StringBuilder s = new StringBuilder();
        for (ColumnOrSuperColumn cell : cells) {
            if (cell.isSetColumn()) {
                Column c = cell.getColumn();
                s.append(text(c.getName())).append('=').append(text(c.getValue())).append('@').append(c.getTimestamp());
            } else {
                SuperColumn sc = cell.getSuper_column();
                s.append(text(sc.getName())).append('[');
                for (Column c : sc.getColumns()) {
                    s.append(text(c.getName())).append('=').append(text(c.getValue())).append('@').append(c.getTimestamp())
                            .append(' ');
                }
                s.append(']');
            }
            s.append(' ');
        }
        return s.toString();
    }

    private static Map<String, String> contents(LocalNode node) throws Exception {
        Cassandra.Client client = node.client();
        try {
            return contents(client);
        } finally {
            LocalNode.close(client);
        }
    }

    /** README's restore commands, run by bash in the install directory as an operator would. */
    private static void restore(LocalNode node, String snapshot) throws Exception {
        String script = """
                set -eu
                rm -f var/commitlog/*
                rm -f var/data/*/*.db
                for s in var/data/*/snapshots/SNAPSHOT; do cp "$s"/* "$s/../.."; done
                """.replace("SNAPSHOT", snapshot);
        Process p = new ProcessBuilder("bash", "-c", script).directory(node.data().getParent().getParent().toFile())
                .redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), output);
    }

    @Test
    void aSnapshotCopiedIntoPlaceBringsBackEveryRowAsItWas() throws Exception {
        LocalNode node = new LocalNode(dir);
        Map<String, String> atSnapshot;
        node.start("node-1");
        try {
            Cassandra.Client client = node.client();
            try {
                writeRows(client, 0, 100, "flushed", TS);
                assertEquals(0, node.nodetool("flush", KS).status());
                writeRows(client, 100, 200, "unflushed", TS);
            } finally {
                LocalNode.close(client);
            }
            atSnapshot = contents(node);
            assertEquals(200 + 200 - 200 / 25, atSnapshot.size(), "rows of both column families, less the deleted ones");

            LocalNode.Result taken = node.nodetool("snapshot", "nightly");
            assertEquals(0, taken.status(), taken.output());
            Matcher m = Pattern.compile("Snapshot (\\d+-nightly) taken in:\\n  (\\S+)\\n").matcher(taken.output());
            assertTrue(m.find(), taken.output());
            String snapshot = m.group(1);
            assertEquals(node.data().resolve(KS).resolve("snapshots").resolve(snapshot).toString(), m.group(2));

            // After the snapshot: everything overwritten, more rows, more deletions, and a compaction
            // that deletes the SSTables the snapshot links to.
            client = node.client();
            try {
                writeRows(client, 0, 300, "later", TS + 100);
                client.remove(KS, "row-001", new ColumnPath("Standard1"), TS + 200, ConsistencyLevel.ONE);
            } finally {
                LocalNode.close(client);
            }
            assertEquals(0, node.nodetool("flush").status());
            LocalNode.Result compact = node.nodetool("compact", KS);
            assertEquals(0, compact.status(), compact.output());
            assertNotEquals(atSnapshot, contents(node));
        } finally {
            node.stop();
        }

        restore(node, "*-nightly");
        node.start("node-2");
        try {
            assertEquals(atSnapshot, contents(node), "every row as it was at the snapshot");
            LocalNode.Result cleared = node.nodetool("clearsnapshot", "nightly");
            assertEquals(0, cleared.status(), cleared.output());
            assertTrue(cleared.output().startsWith("Removed 1 snapshot directories tagged nightly"), cleared.output());
            try (Stream<Path> files = Files.walk(node.data())) {
                assertFalse(files.anyMatch(f -> f.getFileName().toString().equals("snapshots")), "no snapshot is left");
            }
            assertEquals(atSnapshot, contents(node), "the node's own SSTables stay");

            LocalNode.Result badTag = node.nodetool("snapshot", "../up");
            assertEquals(1, badTag.status(), badTag.output());
            assertEquals("nodetool: snapshot failed: snapshot tag '../up' must be 1 to 200 letters, digits, '_', '.' or"
                    + " '-', and not begin with '.' or '-'\n", badTag.output());
            LocalNode.Result twoTags = node.nodetool("snapshot", "a", "b");
            assertEquals(2, twoTags.status(), twoTags.output());
            assertTrue(twoTags.output().startsWith("nodetool: too many arguments for snapshot: a b"), twoTags.output());
            assertEquals(1, twoTags.output().lines().count(), "one line: " + twoTags.output());
            LocalNode.Result help = node.nodetool("snapshot", "--help");
            assertEquals(0, help.status(), help.output());
            assertTrue(help.output().contains("  snapshot [TAG] ") && help.output().contains("  clearsnapshot [TAG] ")
                    && help.output().contains("  scrub [KS [CF...]] "), help.output());
        } finally {
            node.stop();
        }
    }
}
