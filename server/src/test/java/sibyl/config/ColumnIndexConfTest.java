package sibyl.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code <Column IndexType="KEYS" IndexName=".."/>}: read into the column family's validation, refused when bad. */
class ColumnIndexConfTest {
    @TempDir
    Path dir;

    private static String withColumns(String columns) {
        return ConfXml.minimalWithColumnFamilies("<ColumnFamily Name=\"Standard1\">" + columns + "</ColumnFamily>");
    }

    @Test
    void indexedColumnsAreReadWithTheirNames() throws Exception {
        StorageConf conf = ConfXml.load(dir, withColumns("<Column Name=\"state\" ValidationClass=\"UTF8Type\" IndexType=\"KEYS\"/>"
                + "<Column Name=\"city\" ValidationClass=\"UTF8Type\" IndexType=\"KEYS\" IndexName=\"by_city\"/>"
                + "<Column Name=\"age\" ValidationClass=\"LongType\"/>"));
        ColumnFamilyConf cf = conf.keyspaces().get(0).columnFamilies().get(0);
        assertEquals(Map.of("state", "", "city", "by_city"), cf.validation().indexes());
        assertEquals(3, cf.validation().columns().size());
    }

    @Test
    void anotherIndexTypeABadNameOrANameWithoutATypeIsRefused() {
        refused("<Column Name=\"a\" ValidationClass=\"UTF8Type\" IndexType=\"COMPOSITES\"/>", "@IndexType",
                "KEYS secondary indexes only");
        refused("<Column Name=\"a\" ValidationClass=\"UTF8Type\" IndexType=\"KEYS\" IndexName=\"a b\"/>", "@IndexName",
                "letters, digits and underscores");
        refused("<Column Name=\"a\" ValidationClass=\"UTF8Type\" IndexName=\"a_idx\"/>", "@IndexName", "needs IndexType");
    }

    private void refused(String columns, String attribute, String problem) {
        ConfigurationException e = assertThrows(ConfigurationException.class, () -> ConfXml.load(dir, withColumns(columns)));
        assertTrue(e.element().endsWith(attribute), e::getMessage);
        assertTrue(e.problem().contains(problem), e::getMessage);
    }
}
