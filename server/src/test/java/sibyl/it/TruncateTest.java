package sibyl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.layered.TFramedTransport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.iface.v20.Cassandra;
import sibyl.iface.v20.Column;
import sibyl.iface.v20.ColumnParent;
import sibyl.iface.v20.ConsistencyLevel;
import sibyl.iface.v20.InvalidRequestException;
import sibyl.iface.v20.KeyRange;
import sibyl.iface.v20.KeySlice;
import sibyl.iface.v20.SlicePredicate;
import sibyl.iface.v20.SliceRange;

/**
 * truncate on a real node over its files (docs/semantics.md §Truncate): what was written before it, in SSTables
 * and in the commit log, is gone and stays gone across restarts, even when a crash left the discarded SSTables'
 * files behind; what is written after it stays; other column families are untouched; a snapshot keeps the rest.
 */
class TruncateTest {
    private static final String KS = "Keyspace1";
    private static final String CF = "Standard1";
    private static final String OTHER = "Standard2";

    @TempDir
    Path dir;
    private final List<TTransport> transports = new ArrayList<>();

    @AfterEach
    void closeClients() {
        transports.forEach(TTransport::close);
    }

    @Test
    void whatWasWrittenBeforeIsGoneAcrossRestartsAndWhatCameAfterStays() throws Exception {
        Path data = dir.resolve("var/data").resolve(KS);
        Path aside = Files.createDirectory(dir.resolve("aside"));
        try (TestNode node = TestNode.start(dir)) {
            Cassandra.Client c = client(node);
            for (int i = 0; i < 20; i++) insert(c, CF, "flushed" + i);
            insert(c, OTHER, "other");
            node.invoke("org.apache.cassandra.service:type=StorageService", "forceTableFlush", KS, new String[0]);
            for (int i = 0; i < 20; i++) insert(c, CF, "logged" + i); // in the memtable and the commit log only
            List<Path> flushed = sstableFiles(data, CF);
            assertFalse(flushed.isEmpty(), "the first rows were flushed");
            // What a crash between the record and the deletion would leave on disk.
            for (Path p : flushed) Files.copy(p, aside.resolve(p.getFileName()));

            c.truncate(CF);
            assertEquals(List.of(), keys(c, CF));
            insert(c, CF, "after");
            assertEquals(List.of("after"), keys(c, CF));
            assertEquals(List.of("other"), keys(c, OTHER));
            assertTrue(Files.isDirectory(data.resolve("snapshots")), "a snapshot was taken first");
        }
        try (Stream<Path> files = Files.list(aside)) {
            for (Path p : files.toList()) Files.copy(p, data.resolve(p.getFileName()), StandardCopyOption.REPLACE_EXISTING);
        }
        try (TestNode node = TestNode.start(dir)) {
            Cassandra.Client c = client(node);
            assertEquals(List.of("after"), keys(c, CF), "neither the commit log nor the old SSTables bring rows back");
            assertEquals(List.of("other"), keys(c, OTHER));
            insert(c, CF, "later");
        }
        try (Stream<Path> files = Files.list(aside)) {
            for (Path p : files.toList()) {
                assertFalse(Files.exists(data.resolve(p.getFileName())), "start-up deleted the discarded " + p.getFileName());
            }
        }
        try (TestNode node = TestNode.start(dir)) {
            List<String> keys = keys(client(node), CF);
            assertEquals(2, keys.size(), "a restart keeps the rows written after the truncate: " + keys);
            assertTrue(keys.containsAll(List.of("after", "later")));
        }
    }

    @Test
    void anUnknownTableOrNoKeyspaceIsRefusedAs311Does() throws Exception {
        try (TestNode node = TestNode.start(dir)) {
            Cassandra.Client c = client(node);
            assertEquals("unconfigured table Nope",
                    assertThrows(InvalidRequestException.class, () -> c.truncate("Nope")).getWhy());
            Cassandra.Client fresh = unset(node);
            assertEquals("No keyspace has been specified. USE a keyspace, or explicitly specify keyspace.tablename",
                    assertThrows(InvalidRequestException.class, () -> fresh.truncate(CF)).getWhy());
        }
    }

    private static List<Path> sstableFiles(Path data, String cf) throws Exception {
        try (Stream<Path> files = Files.list(data)) {
            return files.filter(p -> p.getFileName().toString().startsWith(cf + "-")).toList();
        }
    }

    private static void insert(Cassandra.Client c, String cf, String key) throws Exception {
        c.insert(b(key), new ColumnParent(cf), new Column(b("c")).setValue(b("v")).setTimestamp(System.nanoTime()),
                ConsistencyLevel.ONE);
    }

    private static List<String> keys(Cassandra.Client c, String cf) throws Exception {
        List<String> keys = new ArrayList<>();
        for (KeySlice s : c.get_range_slices(new ColumnParent(cf), new SlicePredicate().setSlice_range(
                        new SliceRange(b(""), b(""), false, 10)), new KeyRange(1000).setStart_key(new byte[0])
                        .setEnd_key(new byte[0]), ConsistencyLevel.ONE)) {
            if (!s.getColumns().isEmpty()) keys.add(new String(s.getKey(), StandardCharsets.UTF_8));
        }
        return keys;
    }

    private Cassandra.Client client(TestNode node) throws Exception {
        Cassandra.Client c = unset(node);
        c.set_keyspace(KS);
        return c;
    }

    private Cassandra.Client unset(TestNode node) throws Exception {
        TTransport t = new TFramedTransport(new TSocket("127.0.0.1", node.port(), 10_000));
        t.open();
        transports.add(t);
        return new Cassandra.Client(new TBinaryProtocol(t));
    }

    private static ByteBuffer b(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }
}
