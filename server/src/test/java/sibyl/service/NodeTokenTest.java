package sibyl.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.config.ClassNames;

class NodeTokenTest {
    private static final NodeToken.SavedByCassandra06 NONE = NodeToken.SavedByCassandra06.NONE;

    @TempDir
    Path data;

    private Path system() {
        return data.resolve("system");
    }

    private String savedFile() throws IOException {
        return Files.readString(system().resolve("token"), StandardCharsets.UTF_8);
    }

    @Test
    void firstStartTakesInitialTokenAndKeepsIt() throws IOException {
        assertEquals("42", NodeToken.resolve("42", ClassNames.RANDOM_PARTITIONER, system(), NONE));
        assertEquals("42", savedFile());
        // As in 0.6, a token once saved wins over a changed InitialToken.
        assertEquals("42", NodeToken.resolve("43", ClassNames.RANDOM_PARTITIONER, system(), NONE));
        assertFalse(Files.exists(system().resolve("token.tmp")));
    }

    @Test
    void firstStartWithoutInitialTokenDrawsOneAndKeepsIt() throws IOException {
        String drawn = NodeToken.resolve(null, ClassNames.RANDOM_PARTITIONER, system(), NONE);
        BigInteger t = new BigInteger(drawn);
        assertTrue(t.signum() >= 0 && t.bitLength() <= 127, drawn);
        assertEquals(drawn, NodeToken.resolve(null, ClassNames.RANDOM_PARTITIONER, system(), NONE));
    }

    @Test
    void takesOverTheTokenACassandra06NodeSavedEvenOverInitialToken() throws IOException {
        BigInteger token = new BigInteger("85070591730234615865843651857942052864");
        NodeToken.SavedByCassandra06 saved = new NodeToken.SavedByCassandra06(token.toByteArray(),
                ClassNames.RANDOM_PARTITIONER);
        assertEquals(token.toString(), NodeToken.resolve("7", ClassNames.RANDOM_PARTITIONER, system(), saved));
        assertEquals(token.toString(), savedFile());
        assertEquals(token.toString(), NodeToken.resolve("7", ClassNames.RANDOM_PARTITIONER, system(), saved));
    }

    @Test
    void readsEachPartitionersTokenBytesAs06WroteThem() {
        assertEquals("-1", NodeToken.fromBytes(ClassNames.RANDOM_PARTITIONER, new byte[] {(byte) 0xff}));
        assertEquals("kéy", NodeToken.fromBytes(ClassNames.ORDER_PRESERVING_PARTITIONER,
                "kéy".getBytes(StandardCharsets.UTF_8)));
        assertEquals("00ff10", NodeToken.fromBytes(ClassNames.COLLATING_ORDER_PRESERVING_PARTITIONER,
                new byte[] {0, (byte) 0xff, 0x10}));
    }

    @Test
    void aDrawnTokenIsOneOfItsPartitionerOtherThanTheMinimum() {
        java.security.SecureRandom random = new java.security.SecureRandom();
        for (String name : ClassNames.PARTITIONERS) {
            sibyl.dht.Partitioner partitioner = sibyl.dht.Partitioners.forName(name);
            for (int i = 0; i < 20; i++) {
                String token = NodeToken.random(name, random);
                assertEquals(token, partitioner.toString(partitioner.fromString(token)), name);
                assertTrue(partitioner.fromString(token).compareTo(partitioner.getMinimumToken()) > 0, name + " " + token);
            }
        }
    }

    @Test
    void refusesDataOfAnotherPartitionerNamingBoth() {
        NodeToken.SavedByCassandra06 saved = new NodeToken.SavedByCassandra06(new byte[] {1},
                ClassNames.ORDER_PRESERVING_PARTITIONER);
        IOException e = assertThrows(IOException.class,
                () -> NodeToken.resolve(null, ClassNames.RANDOM_PARTITIONER, system(), saved));
        assertTrue(e.getMessage().contains("set Partitioner back to " + ClassNames.ORDER_PRESERVING_PARTITIONER),
                e.getMessage());
        assertFalse(Files.exists(system().resolve("token")), "nothing saved on a refusal");
    }
}
