package sibyl.client.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Netflix's Astyanax client over its Thrift driver (com.netflix.astyanax:astyanax-thrift from Maven Central) as an
 * application uses it, against {@code bin/server} with the shipped configuration:
 * client/src/test/astyanax/AstyanaxProgram.java writes, reads, slices, counts, scans all rows by pages and deletes
 * in Keyspace1, then makes a keyspace and a LongType column family by API, writes to it, keeps counters in a counter
 * column family made by API, searches a column family with a KEYS index by it, truncates the first and drops the
 * keyspace, checking every answer itself. It runs in a JVM of its own ({@link ClientProgram}); skipped off CI where
 * its jars cannot be resolved, as {@link MavenClassPath} says.
 */
class AstyanaxIT {
    @TempDir
    Path dir;

    @Test
    void astyanaxReadsWhatItWrote() throws Exception {
        String printed = ClientProgram.run(new LocalNode(dir), dir, "client/src/test/astyanax/AstyanaxProgram.java",
                "astyanax.classpath");
        assertTrue(printed.strip().endsWith("ASTYANAX OK: 17 checks passed"), () -> "every check ran:\n" + printed);
    }
}
