package sibyl.thrift;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sibyl.db.TestSchema.KS;
import static sibyl.db.TestSchema.STD;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.apache.cassandra.thrift.Column;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.ColumnPath;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.apache.cassandra.thrift.Mutation;
import org.apache.thrift.TApplicationException;
import org.junit.jupiter.api.Test;
import sibyl.auth.AllowAllAuthenticator;
import sibyl.db.Cell;
import sibyl.db.ColumnSelection;
import sibyl.db.CompareAndSet;
import sibyl.db.QueryPath;
import sibyl.db.RowMutation;
import sibyl.db.RowRange;
import sibyl.db.RowSlice;
import sibyl.db.TestSchema;
import sibyl.db.WriteFailedException;
import sibyl.dht.Partitioner;
import sibyl.dht.Partitioners;
import sibyl.dht.Token;
import sibyl.engine.LocalStorageService;
import sibyl.service.Consistency;
import sibyl.service.Schema;
import sibyl.service.SerialConsistency;
import sibyl.service.StorageService;

/** How the handler answers writes the store fails, with a store that answers at once. */
class CassandraHandlerWriteTest {
    private final LocalStorageService engine = new LocalStorageService(
            Partitioners.forName("org.apache.cassandra.dht.RandomPartitioner"), List.of(TestSchema.keyspace1()), 128);
    /** Fails every write from the third on, as a commit log that cannot be written. */
    private final FailingWrites storage = new FailingWrites(engine, 2);
    private final CassandraHandler handler = new CassandraHandler(new SchemaViews(storage), () -> null,
            new AllowAllAuthenticator(), new ConnectionSession(new AllowAllAuthenticator()), storage, engine,
            m -> CompletableFuture.completedFuture(null), 10_000, new AuthRefusals());

    @Test
    void aBatchThatFailsPartlySaysHowManyRowsWereWritten() throws Exception {
        Map<String, Map<String, List<Mutation>>> rows = new LinkedHashMap<>();
        for (String key : List.of("a", "b", "c", "d")) rows.put(key, Map.of(STD, List.of(insert("col"))));
        CompletableFuture<Void> answer = handler.batch_mutate(KS, rows, ConsistencyLevel.ONE);
        TApplicationException e = assertInstanceOf(TApplicationException.class,
                assertThrows(CompletionException.class, answer::join).getCause());
        assertEquals(TApplicationException.INTERNAL_ERROR, e.getType());
        assertEquals("commit log full; the first 2 of the 4 rows of this batch were written", e.getMessage());
        assertEquals(3, storage.writes, "no row is started after the one that failed");
    }

    @Test
    void aRowThatFailsAloneSaysWhyOnly() throws Exception {
        ColumnPath path = new ColumnPath(STD);
        path.setColumn("col".getBytes(StandardCharsets.UTF_8));
        for (String key : List.of("a", "b")) {
            handler.insert(KS, key, path, ByteBuffer.wrap(new byte[] {1}), 1, ConsistencyLevel.ONE).join();
        }
        CompletableFuture<Void> answer = handler.insert(KS, "c", path, ByteBuffer.wrap(new byte[] {1}), 1,
                ConsistencyLevel.ONE);
        TApplicationException e = assertInstanceOf(TApplicationException.class,
                assertThrows(CompletionException.class, answer::join).getCause());
        assertEquals("commit log full", e.getMessage());
        assertTrue(engine.get(KS, "b", QueryPath.column(STD, "col".getBytes(StandardCharsets.UTF_8))).isPresent());
    }

    private static Mutation insert(String name) {
        Column column = new Column(ByteBuffer.wrap(name.getBytes(StandardCharsets.UTF_8)),
                ByteBuffer.wrap(new byte[] {1}), 1);
        Mutation m = new Mutation();
        m.setColumn_or_supercolumn(new ColumnOrSuperColumn().setColumn(column));
        return m;
    }

    /** The engine, but for writes past the first {@code allowed}, which fail as a full commit log fails them. */
    private static final class FailingWrites implements StorageService {
        private final LocalStorageService engine;
        private final int allowed;
        int writes;

        FailingWrites(LocalStorageService engine, int allowed) {
            this.engine = engine;
            this.allowed = allowed;
        }

        @Override
        public CompletableFuture<Void> write(RowMutation mutation, Consistency consistency) {
            if (++writes > allowed) return CompletableFuture.failedFuture(new WriteFailedException("commit log full"));
            return engine.write(mutation, consistency);
        }

        @Override
        public CompletableFuture<CompareAndSet.Outcome> compareAndSet(CompareAndSet cas, SerialConsistency serial,
                                                                     Consistency commit) {
            return engine.compareAndSet(cas, serial, commit);
        }

        @Override
        public Partitioner partitioner() {
            return engine.partitioner();
        }

        @Override
        public Schema schema() {
            return engine.schema();
        }

        @Override
        public CompletableFuture<Optional<Cell>> readCell(String keyspace, String key, QueryPath path,
                                                          Consistency consistency) {
            return engine.readCell(keyspace, key, path, consistency);
        }

        @Override
        public CompletableFuture<List<Cell>> readSlice(String keyspace, String key, QueryPath parent,
                                                       ColumnSelection selection, Consistency consistency) {
            return engine.readSlice(keyspace, key, parent, selection, consistency);
        }

        @Override
        public CompletableFuture<Integer> count(String keyspace, String key, QueryPath parent,
                                                Consistency consistency) {
            return engine.count(keyspace, key, parent, consistency);
        }

        @Override
        public CompletableFuture<List<RowSlice>> scan(String keyspace, QueryPath parent, ColumnSelection selection,
                                                      RowRange range, int count, Consistency consistency) {
            return engine.scan(keyspace, parent, selection, range, count, consistency);
        }

        @Override
        public CompletableFuture<Void> truncate(String keyspace, String columnFamily) {
            return engine.truncate(keyspace, columnFamily);
        }

        @Override
        public List<Token> ringTokens() {
            return engine.ringTokens();
        }

        @Override
        public List<Token> describeSplits(Token start, Token end, int keysPerSplit) {
            return engine.describeSplits(start, end, keysPerSplit);
        }
    }
}
