package sibyl.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchableStatement;
import com.datastax.oss.driver.api.core.cql.DefaultBatchType;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.cql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The statements of a counter table (docs/thrift-api-0.7.md §Counters): increments and deletions without the
 * timestamp the cluster refuses for counters, a counter's own deletion a tombstone of its cell, reads of the value
 * alone; and a batch with an increment sent as a counter batch the driver never sends twice.
 */
class CounterStatementsTest {
    private static final String TABLE = "\"k\".\"c\"";

    @Test
    void aCounterTablesStatementsCarryNoTimestampAndDeleteACountersCell() {
        TableStatements standard = new TableStatements(TABLE, false, null, true, null);
        assertTrue(standard.counter());
        assertEquals("UPDATE " + TABLE + " SET value = value + ? WHERE key = ? AND column1 = ?", standard.update().cql());
        assertEquals("DELETE value FROM " + TABLE + " WHERE key = ? AND column1 = ?", standard.deleteColumn().cql());
        assertEquals("DELETE FROM " + TABLE + " WHERE key = ?", standard.deleteRow().cql());
        assertEquals("SELECT column1, value FROM " + TABLE + " WHERE key = ? AND column1 = ?",
                standard.columnsByName(1).cql());

        TableStatements sup = new TableStatements(TABLE, true, null, true, null);
        assertEquals("UPDATE " + TABLE + " SET value = value + ? WHERE key = ? AND column1 = ? AND column2 = ?",
                sup.update().cql());
        assertEquals("DELETE value FROM " + TABLE + " WHERE key = ? AND column1 = ? AND column2 = ?",
                sup.deleteSubcolumn().cql());
        assertEquals("DELETE FROM " + TABLE + " WHERE key = ? AND column1 = ?", sup.deleteColumn().cql(),
                "a super column's deletion deletes its rows");
        assertEquals("SELECT column1, column2, value FROM " + TABLE + " WHERE key = ? AND column1 = ?",
                sup.superColumnsByName(1).cql());
    }

    @Test
    void aPlainTablesStatementsKeepTheClientsTimestamp() {
        TableStatements plain = new TableStatements(TABLE, false, null, false, null);
        assertFalse(plain.counter());
        assertTrue(plain.update().cql().startsWith("UPDATE " + TABLE + " USING TIMESTAMP ? AND TTL ?"));
        assertEquals("DELETE FROM " + TABLE + " USING TIMESTAMP ? WHERE key = ? AND column1 = ?",
                plain.deleteColumn().cql());
    }

    @Test
    void aBatchWithAnIncrementIsACounterBatchNeverSentTwice() {
        RequestSettings settings = RequestSettings.of(RequestSettingsTest.sibylsProfile());
        BatchableStatement<?> increment = SimpleStatement.newInstance("UPDATE t SET value = value + 1")
                .setIdempotent(false);
        BatchableStatement<?> deletion = SimpleStatement.newInstance("DELETE value FROM t");

        Statement<?> counters = MutationStatements.batch(List.of(deletion, increment), settings,
                DefaultConsistencyLevel.QUORUM, true);
        assertEquals(DefaultBatchType.COUNTER, ((BatchStatement) counters).getBatchType());
        assertEquals(Boolean.FALSE, counters.isIdempotent());
        assertEquals(DefaultConsistencyLevel.QUORUM, counters.getConsistencyLevel());

        Statement<?> deletions = MutationStatements.batch(List.of(deletion, deletion), settings,
                DefaultConsistencyLevel.ONE, true);
        assertEquals(DefaultBatchType.COUNTER, ((BatchStatement) deletions).getBatchType());
        assertEquals(Boolean.TRUE, deletions.isIdempotent(), "deleting twice deletes once");

        Statement<?> plain = MutationStatements.batch(List.of(deletion, deletion), settings,
                DefaultConsistencyLevel.ONE, false);
        assertEquals(DefaultBatchType.UNLOGGED, ((BatchStatement) plain).getBatchType());
        assertSame(increment, MutationStatements.batch(List.of(increment), settings, DefaultConsistencyLevel.ONE, true),
                "one statement goes as it is, its idempotence its own");
    }
}
