package sibyl.config;

import java.util.Locale;
import java.util.Optional;

/** When the commit log is forced to disk relative to acknowledging a write. */
public enum CommitLogSync {
    /** Acknowledge at once; fsync every CommitLogSyncPeriodInMS. */
    PERIODIC,
    /** fsync before acknowledging, grouping writers that arrive within CommitLogSyncBatchWindowInMS. */
    BATCH;

    /** The spelling used in storage-conf.xml ({@code periodic}, {@code batch}). */
    public String configName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<CommitLogSync> fromConfigName(String name) {
        for (CommitLogSync mode : values()) {
            if (mode.configName().equalsIgnoreCase(name)) {
                return Optional.of(mode);
            }
        }
        return Optional.empty();
    }
}
