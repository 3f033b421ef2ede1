package sibyl.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.db.LogPosition;
import sibyl.io.TruncationRecords.Truncation;

class TruncationRecordsTest {
    @TempDir
    Path dir;

    @Test
    void recordsSurviveTheirFileAndReplaceOnlyTheirColumnFamily() throws IOException {
        assertNull(TruncationRecords.read(dir).of("Standard1"), "no file, no truncation");
        Truncation first = new Truncation(1_000L, new LogPosition(7, 4096), Set.of(3, 1, 2));
        Truncation other = new Truncation(2_000L, new LogPosition(8, 12), Set.of());
        TruncationRecords.none().with("Standard1", first).with("Super1", other).write(dir);
        TruncationRecords read = TruncationRecords.read(dir);
        assertEquals(first, read.of("Standard1"));
        assertEquals(other, read.of("Super1"));

        Truncation second = new Truncation(3_000L, new LogPosition(9, 0), Set.of(5));
        read.with("Standard1", second).write(dir);
        assertEquals(second, TruncationRecords.read(dir).of("Standard1"));
        assertEquals(other, TruncationRecords.read(dir).of("Super1"));
        assertFalse(Files.exists(dir.resolve(TruncationRecords.TEMPORARY_NAME)), "the temporary file was renamed");
    }

    @Test
    void aLeftoverTemporaryFileIsReplaced() throws IOException {
        Files.writeString(dir.resolve(TruncationRecords.TEMPORARY_NAME), "half a write");
        Truncation t = new Truncation(1L, new LogPosition(1, 1), Set.of(1));
        TruncationRecords.none().with("Standard1", t).write(dir);
        assertEquals(t, TruncationRecords.read(dir).of("Standard1"));
    }

    @Test
    void aDamagedFileStopsTheReaderNamingIt() throws IOException {
        TruncationRecords.none().with("Standard1", new Truncation(1L, new LogPosition(1, 1), Set.of(1))).write(dir);
        Path file = dir.resolve(TruncationRecords.FILE_NAME);
        byte[] bytes = Files.readAllBytes(file);
        bytes[bytes.length / 2] ^= 0x10;
        Files.write(file, bytes);
        IOException e = assertThrows(IOException.class, () -> TruncationRecords.read(dir));
        assertTrue(e.getMessage().contains(file.toString()) && e.getMessage().contains("checksum"), e.getMessage());
    }
}
