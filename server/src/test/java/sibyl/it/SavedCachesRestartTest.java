package sibyl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sibyl.it.Requests.all;
import static sibyl.it.Requests.b;
import static sibyl.it.Requests.parent;
import static sibyl.it.Requests.text;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real node saves its caches when it stops cleanly and the next one holds the saved keys in
 * its key and row caches before its first read, and reads right from them.
 */
class SavedCachesRestartTest {
    private static final String KS = "Keyspace1";
    private static final int ROWS = 30;

    @TempDir
    Path dir;

    /**
     * The shipped Keyspace1: Standard1 keeps 1000 keys (saved hourly) and 100 rows, and here
     * saves its rows hourly too; Standard2 caches every key and here saves them hourly.
     */
    private static final UnaryOperator<String> SAVE_EVERY_HOUR = xml -> xml
            .replace("RowCacheSavePeriodInSeconds=\"0\"", "RowCacheSavePeriodInSeconds=\"3600\"")
            .replace("<ColumnFamily Name=\"Standard2\" CompareWith=\"UTF8Type\" KeysCached=\"100%\"/>",
                    "<ColumnFamily Name=\"Standard2\" CompareWith=\"UTF8Type\" KeysCached=\"100%\""
                            + " KeyCacheSavePeriodInSeconds=\"3600\"/>");

    private static String bean(String cf) {
        return "org.apache.cassandra.db:type=ColumnFamilyStores,keyspace=" + KS + ",columnfamily=" + cf;
    }

    private static void write(Cassandra.Client c, String cf, String column, String value) throws Exception {
        for (int i = 0; i < ROWS; i++) {
            c.insert(KS, "k" + i, Requests.path(cf, column), b(value + i), 1, ConsistencyLevel.ONE);
        }
    }

    private static List<String> readAll(Cassandra.Client c, String cf) throws Exception {
        List<String> rows = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            StringBuilder row = new StringBuilder("k" + i + ":");
            for (ColumnOrSuperColumn col : c.get_slice(KS, "k" + i, parent(cf), all(), ConsistencyLevel.ONE)) {
                row.append(' ').append(text(col.getColumn().name)).append('=').append(text(col.getColumn().value));
            }
            rows.add(row.toString());
        }
        return rows;
    }

    @Test
    void afterACleanStopTheNextStartHoldsTheSavedKeysBeforeItsFirstRead() throws Exception {
        List<String> standard1;
        List<String> standard2;
        try (TestNode node = TestNode.start(dir, SAVE_EVERY_HOUR)) {
            Cassandra.Client c = node.client();
            write(c, "Standard1", "a", "flushed");
            write(c, "Standard2", "a", "flushed");
            node.invoke("org.apache.cassandra.service:type=StorageService", "forceTableFlush", KS, new String[0]);
            write(c, "Standard1", "b", "logged"); // in the commit log only: the saved rows are merged at start-up
            standard1 = readAll(c, "Standard1");
            standard2 = readAll(c, "Standard2");
            assertEquals(ROWS, node.attribute(bean("Standard1"), "RowCacheSize"));
            assertEquals(ROWS, node.attribute(bean("Standard2"), "KeyCacheSize"));
        }
        Path saved = dir.resolve("var/saved_caches");
        for (String file : List.of("Keyspace1-Standard1-KeyCache", "Keyspace1-Standard1-RowCache",
                "Keyspace1-Standard2-KeyCache")) {
            assertTrue(Files.exists(saved.resolve(file)), file + " saved at the clean stop");
        }
        try (TestNode node = TestNode.start(dir, SAVE_EVERY_HOUR)) {
            assertEquals(ROWS, node.attribute(bean("Standard1"), "RowCacheSize"), "rows cached before any read");
            assertEquals(ROWS, node.attribute(bean("Standard1"), "KeyCacheSize"));
            assertEquals(ROWS, node.attribute(bean("Standard2"), "KeyCacheSize"), "keys cached before any read");
            Cassandra.Client c = node.client();
            assertEquals(standard1, readAll(c, "Standard1"));
            assertEquals(standard2, readAll(c, "Standard2"));
            assertEquals(1.0, node.attribute(bean("Standard1"), "RowCacheHitRate"), "every row read from the row cache");
            assertEquals(1.0, node.attribute(bean("Standard2"), "KeyCacheHitRate"), "every row found by the key cache");
            assertEquals(standard1.get(7), "k7: a=flushed7 b=logged7");
        }
    }
}
