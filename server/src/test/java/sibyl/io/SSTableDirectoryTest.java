package sibyl.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SSTableDirectoryTest {

    @TempDir
    Path root;

    @Test
    void aGenerationIsInUseWhenAnyDirectoryHoldsItsTemporaryDataFileOrAComponent() throws IOException {
        Path first = Files.createDirectories(root.resolve("a"));
        Path second = Files.createDirectories(root.resolve("b"));
        List<Path> both = List.of(first, second);
        assertFalse(SSTableDirectory.generationInUse(both, "Standard1", 7));

        Files.createFile(new Descriptor(second, "Standard1", 7).temporaryPath(Component.DATA));
        assertTrue(SSTableDirectory.generationInUse(both, "Standard1", 7), "a writer's temporary Data file");
        assertFalse(SSTableDirectory.generationInUse(both, "Standard1", 8));
        assertFalse(SSTableDirectory.generationInUse(both, "Standard2", 7), "another column family's generation");

        Files.createFile(new Descriptor(first, "Standard1", 8).path(Component.STATISTICS));
        assertTrue(SSTableDirectory.generationInUse(both, "Standard1", 8), "a component renamed into place");
        assertFalse(SSTableDirectory.generationInUse(List.of(second), "Standard1", 8), "only the directories given");
    }

    @Test
    void theRoomiestOfOneDirectoryIsItEvenBeforeItExists() {
        Path absent = root.resolve("not/yet");
        assertEquals(absent, SSTableDirectory.roomiest(List.of(absent)));
    }
}
