package sibyl.service;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sibyl.config.ClassNames;
import sibyl.fs.Directories;

/**
 * This node's token on the ring, chosen once and kept, as 0.6 kept it: a token saved earlier wins;
 * at the first start it is InitialToken when configured, else drawn at random
 * (docs/semantics.md §Partitioners). A node taking over a Cassandra 0.6 node's directories keeps
 * the token that node saved in its system keyspace ({@link SavedByCassandra06}), so ring order and
 * describe_ring stay the node's own.
 *
 * <p>File format of {@code system/token}: the token string in UTF-8, nothing else. It is written
 * to {@code token.tmp}, synced, renamed over {@code token} and the directory synced, so a crash or
 * power cut leaves the old file or the new, and a token once used is never lost.
 */
public final class NodeToken {
    private static final Logger log = LoggerFactory.getLogger(NodeToken.class);
    static final String FILE_NAME = "token";

    /**
     * What a Cassandra 0.6 node saved of itself in {@code system.LocationInfo}, row {@code L}: its token
     * as the partitioner's bytes (columns {@code Token}) and the partitioner's class name
     * ({@code Partitioner}, written by 0.6.5 and later); either is null when absent.
     */
    public record SavedByCassandra06(byte[] token, String partitioner) {
        public static final SavedByCassandra06 NONE = new SavedByCassandra06(null, null);
    }

    private NodeToken() {
    }

    /**
     * @param initialToken the configured InitialToken, or null
     * @param partitioner  full class name of the configured partitioner
     * @param systemDir    directory for this node's own metadata
     * @param cassandra06  what a Cassandra 0.6 node left in the data directories; {@link SavedByCassandra06#NONE}
     * @throws IOException when the token cannot be saved, or 0.6's data was written under another partitioner
     */
    public static String resolve(String initialToken, String partitioner, Path systemDir, SavedByCassandra06 cassandra06)
            throws IOException {
        if (cassandra06.partitioner() != null && !cassandra06.partitioner().equals(partitioner)) {
            throw new IOException("the data in " + systemDir.getParent() + " was written by a Cassandra 0.6 node running "
                    + cassandra06.partitioner() + " (system.LocationInfo), but storage-conf.xml names Partitioner "
                    + partitioner + "; rows are stored in their partitioner's order, so set Partitioner back to "
                    + cassandra06.partitioner());
        }
        Path file = systemDir.resolve(FILE_NAME);
        Optional<String> saved = read(file);
        String token;
        if (saved.isPresent()) {
            token = saved.get();
        } else if (cassandra06.token() != null) {
            token = fromBytes(partitioner, cassandra06.token());
            save(file, token);
            log.info("Kept token {}, saved by Cassandra 0.6 in system.LocationInfo, and saved it in {}", token, file);
            return token;
        } else if (initialToken != null && !initialToken.isEmpty()) {
            save(file, initialToken);
            log.info("Saved InitialToken {} in {}", initialToken, file);
            return initialToken;
        } else {
            token = random(partitioner, new SecureRandom());
            save(file, token);
            log.info("No InitialToken configured; chose token {} and saved it in {}", token, file);
            return token;
        }
        if (initialToken != null && !initialToken.isEmpty() && !initialToken.equals(token)) {
            log.warn("InitialToken {} is not used: this node's token is {}, saved at its first start in {} (0.6 too"
                    + " used InitialToken at the first start only); to change it, stop the node and delete that file",
                    initialToken, token, file);
        }
        return token;
    }

    private static Optional<String> read(Path file) throws IOException {
        if (!Files.exists(file)) return Optional.empty();
        String saved = Files.readString(file, StandardCharsets.UTF_8).trim();
        return saved.isEmpty() ? Optional.empty() : Optional.of(saved);
    }

    /** The token string of the bytes 0.6's token factory of {@code partitioner} stored (docs/semantics.md §Partitioners). */
    static String fromBytes(String partitioner, byte[] bytes) {
        if (ClassNames.RANDOM_PARTITIONER.equals(partitioner)) return new BigInteger(bytes).toString();
        if (ClassNames.COLLATING_ORDER_PRESERVING_PARTITIONER.equals(partitioner)) return HexFormat.of().formatHex(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    static String random(String partitioner, SecureRandom rnd) {
        if (ClassNames.RANDOM_PARTITIONER.equals(partitioner)) {
            // RandomPartitioner tokens lie in [0, 2^127].
            return new BigInteger(127, rnd).toString();
        }
        if (ClassNames.MURMUR3_PARTITIONER.equals(partitioner)) {
            long token = rnd.nextLong();
            // Long.MIN_VALUE is the minimum token, which no node takes (3.11 draws the same way).
            return Long.toString(token == Long.MIN_VALUE ? Long.MAX_VALUE : token);
        }
        if (ClassNames.COLLATING_ORDER_PRESERVING_PARTITIONER.equals(partitioner)
                || ClassNames.BYTE_ORDERED_PARTITIONER.equals(partitioner)) {
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
        Path dir = file.getParent();
        Directories.createDurably(dir);
        Path tmp = file.resolveSibling(FILE_NAME + ".tmp");
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ch.write(ByteBuffer.wrap(token.getBytes(StandardCharsets.UTF_8)));
            ch.force(true);
        }
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        Directories.sync(dir);
    }
}
