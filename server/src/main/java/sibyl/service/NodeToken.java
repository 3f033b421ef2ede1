package sibyl.service;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.util.HexFormat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sibyl.config.ClassNames;

/**
 * This node's token on the ring. Taken from InitialToken when configured; otherwise drawn at
 * random on first start and kept in the data directory, so describe_ring answers the same
 * token across restarts (0.6 kept it in the system keyspace for the same reason).
 *
 * <p>File format of {@code system/token}: the token string in UTF-8, nothing else. It is
 * written to a temporary file, synced and renamed, so a crash leaves the old file or the new.
 */
public final class NodeToken {
    private static final Logger log = LoggerFactory.getLogger(NodeToken.class);
    static final String FILE_NAME = "token";

    private NodeToken() {
    }

    /**
     * @param initialToken  the configured InitialToken, or null
     * @param partitioner   full class name of the configured partitioner
     * @param systemDir     directory for this node's own metadata
     */
    public static String resolve(String initialToken, String partitioner, Path systemDir) throws IOException {
        if (initialToken != null && !initialToken.isEmpty()) {
            return initialToken;
        }
        Path file = systemDir.resolve(FILE_NAME);
        if (Files.exists(file)) {
            String saved = Files.readString(file, StandardCharsets.UTF_8).trim();
            if (!saved.isEmpty()) return saved;
        }
        String token = random(partitioner, new SecureRandom());
        save(file, token);
        log.info("No InitialToken configured; chose token {} and saved it in {}", token, file);
        return token;
    }

    static String random(String partitioner, SecureRandom rnd) {
        if (ClassNames.RANDOM_PARTITIONER.equals(partitioner)) {
            // RandomPartitioner tokens lie in [0, 2^127].
            return new BigInteger(127, rnd).toString();
        }
        if (ClassNames.COLLATING_ORDER_PRESERVING_PARTITIONER.equals(partitioner)) {
            byte[] b = new byte[16];
            rnd.nextBytes(b);
            return HexFormat.of().formatHex(b);
        }
        // OrderPreservingPartitioner: the token is a key; pick a random lowercase word.
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < 16; i++) s.append((char) ('a' + rnd.nextInt(26)));
        return s.toString();
    }

    private static void save(Path file, String token) throws IOException {
        Files.createDirectories(file.getParent());
        Path tmp = file.resolveSibling(FILE_NAME + ".tmp");
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ch.write(java.nio.ByteBuffer.wrap(token.getBytes(StandardCharsets.UTF_8)));
            ch.force(true);
        }
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
}
