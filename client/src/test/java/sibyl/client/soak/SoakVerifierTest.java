package sibyl.client.soak;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.cassandra.thrift.ColumnPath;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import sibyl.client.BatchMutation;
import sibyl.client.SibylClient;
import sibyl.client.fake.FakeServer;

/** The soak's final check, against the in-memory server: it must see a lost or damaged row. */
class SoakVerifierTest {
    private FakeServer server;
    private SibylClient client;
    private final ByteArrayOutputStream errors = new ByteArrayOutputStream();
    private SoakVerifier verifier;

    @BeforeEach
    void start() {
        server = FakeServer.start();
        client = SibylClient.connect("127.0.0.1", server.port());
        verifier = new SoakVerifier(client, new PrintStream(errors, true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void stop() throws InterruptedException {
        client.close();
        server.close();
    }

    private void write(String... keys) {
        BatchMutation batch = new BatchMutation();
        for (String key : keys) SoakRows.addTo(batch, key);
        client.batchMutate(SoakRows.KEYSPACE, batch);
    }

    @Test
    void rowsWrittenWholeAreNotLost() {
        List<String> keys = List.of(SoakRows.standardKey("w0", 0), SoakRows.superKey("w0", 1),
                SoakRows.standardKey("w1", 0));
        write(keys.toArray(String[]::new));
        assertEquals(0, verifier.lost(keys), errors.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aMissingRowIsLost() {
        String written = SoakRows.standardKey("w0", 0);
        write(written);
        assertEquals(1, verifier.lost(List.of(written, SoakRows.superKey("w0", 1))));
    }

    @Test
    void aRowMissingAColumnIsLost() {
        String key = SoakRows.standardKey("w0", 0);
        write(key);
        ColumnPath c1 = new ColumnPath(SoakRows.STANDARD).setColumn("c1".getBytes(StandardCharsets.UTF_8));
        client.remove(SoakRows.KEYSPACE, key, c1, SibylClient.nowMicros(), ConsistencyLevel.ONE);
        assertEquals(1, verifier.lost(List.of(key)));
    }

    @Test
    void aRowWithAWrongValueIsLost() {
        String key = SoakRows.superKey("w0", 0);
        write(key);
        client.insertSuper(SoakRows.KEYSPACE, SoakRows.SUPER, key, "sc".getBytes(StandardCharsets.UTF_8),
                "c2".getBytes(StandardCharsets.UTF_8), "garbage".getBytes(StandardCharsets.UTF_8));
        assertEquals(1, verifier.lost(List.of(key)));
    }
}
