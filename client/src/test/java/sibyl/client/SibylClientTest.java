package sibyl.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sibyl.client.Bytes.utf8;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.ColumnParent;
import org.apache.cassandra.thrift.KeySlice;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import sibyl.client.fake.FakeCassandra;
import sibyl.client.fake.FakeServer;

class SibylClientTest {

    private static final String KS = FakeCassandra.KEYSPACE;

    private FakeServer server;

    @BeforeEach
    void start() {
        server = FakeServer.start();
    }

    @AfterEach
    void stop() throws InterruptedException {
        server.close();
    }

    private SibylClient connect() {
        return SibylClient.connect(ClientConfig.builder().hosts(List.of(server.address())).build());
    }

    /** A port nothing listens on: bound, then released. */
    static int refusedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @Test
    void insertThenGetReturnsTheValueAndMissingColumnsAreEmpty() {
        try (SibylClient client = connect()) {
            client.insert(KS, "Standard1", "jsmith", utf8("first"), utf8("John"));
            assertArrayEquals(utf8("John"), client.getColumn(KS, "Standard1", "jsmith", utf8("first"))
                    .orElseThrow().getValue());
            assertTrue(client.getColumn(KS, "Standard1", "jsmith", utf8("last")).isEmpty());
            assertTrue(client.getColumn(KS, "Standard1", "nobody", utf8("first")).isEmpty());
        }
    }

    @Test
    void superColumnsAreWrittenAndReadBack() {
        try (SibylClient client = connect()) {
            client.insertSuper(KS, "Super1", "k", utf8("address"), utf8("city"), utf8("Paris"));
            client.insertSuper(KS, "Super1", "k", utf8("address"), utf8("zip"), utf8("75001"));
            var sc = client.getSuperColumn(KS, "Super1", "k", utf8("address")).orElseThrow();
            assertEquals(2, sc.getColumnsSize());
            assertArrayEquals(utf8("75001"),
                    client.getSubColumn(KS, "Super1", "k", utf8("address"), utf8("zip")).orElseThrow().getValue());
            assertEquals(1, client.getCount(KS, "Super1", "k"));
            assertEquals(2, client.getCount(KS, "k", Paths.parent("Super1", utf8("address")),
                    client.config().readConsistency()));
        }
    }

    @Test
    void sliceReturnsColumnsInNameOrderWithinBounds() {
        try (SibylClient client = connect()) {
            for (String c : List.of("d", "a", "c", "b", "e")) {
                client.insert(KS, "Standard1", "row", utf8(c), utf8("v" + c));
            }
            List<String> names = new ArrayList<>();
            client.getColumns(KS, "Standard1", "row", utf8("b"), utf8("d"), 100)
                    .forEach(c -> names.add(new String(c.getName())));
            assertEquals(List.of("b", "c", "d"), names);
            assertEquals(5, client.getCount(KS, "Standard1", "row"));
        }
    }

    @Test
    void rangeScanVisitsEveryRowOnceOverMoreThanThreePages() {
        try (SibylClient client = connect()) {
            BatchMutation batch = new BatchMutation();
            for (int i = 0; i < 25; i++) {
                batch.row("Standard1", String.format("key%03d", i)).put(utf8("c"), utf8("v" + i));
            }
            client.batchMutate(KS, batch);
            int callsBefore = server.handler().calls();
            List<String> keys = new ArrayList<>();
            for (KeySlice row : client.scanRows(KS, new ColumnParent("Standard1"), Predicates.first(10), "", "", 7)) {
                keys.add(row.getKey());
                assertEquals(1, row.getColumnsSize());
            }
            List<String> expected = new ArrayList<>();
            for (int i = 0; i < 25; i++) {
                expected.add(String.format("key%03d", i));
            }
            assertEquals(expected, keys);
            // 25 rows, 7 per page, each later page repeating one key: 7 + 6 + 6 + 6 = 25, then a short page.
            assertEquals(5, server.handler().calls() - callsBefore);
        }
    }

    @Test
    void rangeScanStopsAtTheInclusiveEndKey() {
        try (SibylClient client = connect()) {
            for (int i = 0; i < 10; i++) {
                client.insert(KS, "Standard1", "k" + i, utf8("c"), utf8("v"));
            }
            List<String> keys = new ArrayList<>();
            client.scanRows(KS, new ColumnParent("Standard1"), Predicates.first(1), "k2", "k6", 2)
                    .forEach(r -> keys.add(r.getKey()));
            assertEquals(List.of("k2", "k3", "k4", "k5", "k6"), keys);
        }
    }

    @Test
    void rangeScanRefusesPagesTooSmallToAdvance() {
        try (SibylClient client = connect()) {
            assertThrows(IllegalArgumentException.class,
                    () -> client.scanRows(KS, new ColumnParent("Standard1"), Predicates.first(1), "", "", 1));
        }
    }

    @Test
    void columnScanPagesThroughAWideRow() {
        try (SibylClient client = connect()) {
            BatchMutation batch = new BatchMutation();
            for (int i = 0; i < 50; i++) {
                batch.row("Standard1", "wide").put(utf8(String.format("c%02d", i)), utf8("v"));
            }
            client.batchMutate(KS, batch);
            List<String> names = new ArrayList<>();
            for (ColumnOrSuperColumn c : client.scanColumns(KS, "wide", new ColumnParent("Standard1"), 8)) {
                names.add(new String(c.getColumn().getName()));
            }
            assertEquals(50, names.size());
            assertEquals("c00", names.get(0));
            assertEquals("c49", names.get(49));
            assertEquals(50, names.stream().distinct().count());
        }
    }

    @Test
    void batchMutationWritesAndDeletes() {
        try (SibylClient client = connect()) {
            BatchMutation write = new BatchMutation(10);
            write.row("Standard1", "a").put(utf8("x"), utf8("1")).put(utf8("y"), utf8("2"));
            write.row("Super1", "a").putSub(utf8("sc"), utf8("x"), utf8("3"));
            write.row("Standard1", "b").put(utf8("x"), utf8("4"));
            assertEquals(4, write.size());
            client.batchMutate(KS, write);
            assertEquals(2, client.getCount(KS, "Standard1", "a"));

            BatchMutation delete = new BatchMutation(20);
            delete.row("Standard1", "a").delete(utf8("x"));
            delete.row("Standard1", "b").deleteRow();
            delete.row("Super1", "a").deleteSuper(utf8("sc"));
            client.batchMutate(KS, delete);
            assertEquals(1, client.getCount(KS, "Standard1", "a"));
            assertEquals(0, client.getCount(KS, "Standard1", "b"));
            assertEquals(0, client.getCount(KS, "Super1", "a"));
        }
    }

    @Test
    void multigetSliceAnswersEveryKey() {
        try (SibylClient client = connect()) {
            client.insert(KS, "Standard1", "a", utf8("c"), utf8("1"));
            Map<String, List<ColumnOrSuperColumn>> rows = client.multigetSlice(KS, List.of("a", "b"),
                    new ColumnParent("Standard1"), Predicates.first(10), client.config().readConsistency());
            assertEquals(1, rows.get("a").size());
            assertEquals(0, rows.get("b").size());
        }
    }

    @Test
    void invalidRequestsKeepTheServersReason() {
        try (SibylClient client = connect()) {
            ClientException e = assertThrows(ClientException.class,
                    () -> client.insert(KS, "Nope", "k", utf8("c"), utf8("v")));
            assertEquals(ClientException.Kind.INVALID_REQUEST, e.kind());
            assertEquals("unconfigured columnfamily Nope", e.why());
            assertTrue(e.getMessage().contains("insert into Keyspace1.Nope"), e.getMessage());
            // The connection survives a refused request.
            assertEquals("Fake Cluster", client.describeClusterName());
        }
    }

    @Test
    void unknownKeyspaceIsNotFoundOnDescribe() {
        try (SibylClient client = connect()) {
            ClientException e = assertThrows(ClientException.class, () -> client.describeKeyspace("Nope"));
            assertEquals(ClientException.Kind.NOT_FOUND, e.kind());
        }
    }

    @Test
    void connectFailsOverToTheNextHostWhenTheFirstRefuses() throws IOException {
        HostAddress dead = new HostAddress("127.0.0.1", refusedPort());
        ClientConfig config = ClientConfig.builder().hosts(List.of(dead, server.address())).build();
        try (SibylClient client = SibylClient.connect(config)) {
            assertEquals(server.address(), client.connectedHost());
            assertEquals("2.2.0", client.describeVersion());
        }
    }

    @Test
    void aBrokenConnectionIsReplacedByTheNextHostOnTheNextCall() throws Exception {
        try (FakeServer second = FakeServer.start()) {
            ClientConfig config = ClientConfig.builder().hosts(List.of(server.address(), second.address())).build();
            try (SibylClient client = SibylClient.connect(config)) {
                assertEquals(server.address(), client.connectedHost());
                server.close();
                // The first server's worker may still answer one call before its socket closes; go on until
                // the break is seen.
                ClientException broken = null;
                for (int i = 0; i < 50 && broken == null; i++) {
                    try {
                        client.describeClusterName();
                        Thread.sleep(20);
                    } catch (ClientException e) {
                        broken = e;
                    }
                }
                assertTrue(broken != null && broken.brokeConnection(), String.valueOf(broken));
                assertEquals("Fake Cluster", client.describeClusterName());
                assertEquals(second.address(), client.connectedHost());
            }
        }
    }

    @Test
    void noReachableHostNamesEveryAttempt() throws IOException {
        HostAddress a = new HostAddress("127.0.0.1", refusedPort());
        HostAddress b = new HostAddress("127.0.0.1", refusedPort());
        ClientException e = assertThrows(ClientException.class,
                () -> SibylClient.connect(ClientConfig.builder().hosts(List.of(a, b)).build()));
        assertEquals(ClientException.Kind.CONNECTION, e.kind());
        assertTrue(e.getMessage().contains(a.toString()) && e.getMessage().contains(b.toString()), e.getMessage());
    }

    @Test
    void aSlowReplyHitsTheReadTimeoutAndTheNextCallReconnects() {
        // The timeout must also let the next call through on a loaded machine, so it is not tiny;
        // the delay is far beyond it, so the first call cannot slip in under it.
        server.handler().delayDescribeClusterName(5_000);
        ClientConfig config = ClientConfig.builder().hosts(List.of(server.address())).readTimeoutMillis(1_500).build();
        try (SibylClient client = SibylClient.connect(config)) {
            ClientException e = assertThrows(ClientException.class, client::describeClusterName);
            assertEquals(ClientException.Kind.READ_TIMEOUT, e.kind());
            assertFalse(client.isOpen());
            assertEquals("2.2.0", client.describeVersion());
        }
    }

    @Test
    void framedTransportWorksAgainstAFramedServer() throws Exception {
        try (FakeServer framed = FakeServer.start(new FakeCassandra(), true)) {
            ClientConfig config = ClientConfig.builder().hosts(List.of(framed.address())).framed(true).build();
            try (SibylClient client = SibylClient.connect(config)) {
                client.insert(KS, "Standard2", "k", utf8("name"), utf8("value"));
                assertEquals(1, client.getCount(KS, "Standard2", "k"));
            }
        }
    }

    @Test
    void loginIsSentOnConnectWhenConfigured() {
        server.handler().requireLogin(Map.of("jsmith", "havebadpass"));
        try (SibylClient anonymous = connect()) {
            ClientException e = assertThrows(ClientException.class,
                    () -> anonymous.insert(KS, "Standard1", "k", utf8("c"), utf8("v")));
            assertEquals("Login is required before any other API calls", e.why());
        }
        ClientConfig good = ClientConfig.builder().hosts(List.of(server.address()))
                .login(KS, "jsmith", "havebadpass").build();
        try (SibylClient client = SibylClient.connect(good)) {
            client.insert(KS, "Standard1", "k", utf8("c"), utf8("v"));
        }
        ClientConfig bad = good.toBuilder().login(KS, "jsmith", "wrong").build();
        ClientException e = assertThrows(ClientException.class, () -> SibylClient.connect(bad));
        assertEquals(ClientException.Kind.AUTHENTICATION, e.kind());
        assertTrue(e.why().contains("could not be validated for user jsmith"), e.why());
    }
}
