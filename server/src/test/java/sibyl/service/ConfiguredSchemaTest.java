package sibyl.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import sibyl.config.CacheSize;
import sibyl.config.ClassNames;
import sibyl.config.ColumnFamilyConf;
import sibyl.config.ColumnType;
import sibyl.config.KeyspaceConf;
import sibyl.config.NodeSettings;
import sibyl.db.CFMetaData;
import sibyl.db.KSMetaData;
import sibyl.db.SystemKeyspace;
import sibyl.testing.TestConf;

/** Each column family's own settings travel with its metadata, to whichever backend stores it. */
class ConfiguredSchemaTest {
    @Test
    void cachesGraceAndDefaultTimeToLiveTravelWithTheColumnFamily() {
        ColumnFamilyConf cached = new ColumnFamilyConf("Cached", ColumnType.STANDARD, ClassNames.BYTES_TYPE, null, null,
                CacheSize.ofCount(1000), CacheSize.ofFraction(0.5), 60, 30, 3600, null, true, 86400);
        ColumnFamilyConf plain = new ColumnFamilyConf("Plain", ColumnType.SUPER, ClassNames.BYTES_TYPE,
                ClassNames.BYTES_TYPE, null, ColumnFamilyConf.DEFAULT_KEYS_CACHED, ColumnFamilyConf.DEFAULT_ROWS_CACHED,
                0, 0, null, null, false);
        List<KSMetaData> keyspaces = ConfiguredSchema.keyspaces(TestConf.builder(Path.of("/x"))
                .set(NodeSettings.KEYSPACES, List.of(new KeyspaceConf("K", "org.apache.cassandra.locator.RackUnawareStrategy", 1,
                        "org.apache.cassandra.locator.EndPointSnitch", List.of(cached, plain))))
                .build());
        assertEquals(List.of("K", SystemKeyspace.NAME), keyspaces.stream().map(KSMetaData::name).toList());

        CFMetaData c = keyspaces.get(0).columnFamily("Cached").orElseThrow();
        assertEquals(1000, c.caches().keys().entriesFor(10));
        assertEquals(5, c.caches().rows().entriesFor(10), "half of the keys");
        assertEquals(Duration.ofSeconds(30), c.caches().keySavePeriod());
        assertEquals(Duration.ofSeconds(60), c.caches().rowSavePeriod());
        assertTrue(c.caches().preloadRows());
        assertEquals(OptionalInt.of(3600), c.gcGraceSeconds());
        assertEquals(86400, c.defaultTimeToLive());

        CFMetaData p = keyspaces.get(0).columnFamily("Plain").orElseThrow();
        assertEquals(200_000, p.caches().keys().entriesFor(10));
        assertEquals(0, p.caches().rows().entriesFor(10));
        assertFalse(p.caches().preloadRows());
        assertEquals(OptionalInt.empty(), p.gcGraceSeconds(), "the node's GCGraceSeconds applies");
        assertEquals(0, p.defaultTimeToLive(), "no default time to live");
    }
}
