package sibyl.config;

import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The global settings of a 0.6 file that have no effect in Sibyl: checked so that a file 0.6
 * started with loads, and refused where 0.6 refused, but not kept in {@link StorageConf}, since
 * nothing would read them.
 *
 * <p>Each is accepted exactly as 0.6 accepted it, because no value can harm a node that does
 * not use it: where 0.6 parsed a whole number without a range, any whole number will do; where
 * it parsed a decimal, any finite decimal.
 */
final class UnusedSettings {
    /** Warnings go to the loader's logger: that is where a user (and a test) looks for them. */
    private static final Logger log = LoggerFactory.getLogger(StorageConfLoader.class);

    /** The elements checked here; the shipped storage-conf.xml says of each that it has no effect. */
    static final Set<String> ELEMENTS = Set.of(
            "AutoBootstrap", "HintedHandoffEnabled", "Seeds", "StoragePort", "ControlPort", "PhiConvictThreshold",
            "DoConsistencyChecksBoolean", "ThriftFramedTransport", "SnapshotBeforeCompaction",
            "RowWarningThresholdInMB", "SlicedBufferSizeInKB", "BinaryMemtableThroughputInMB",
            "FlushDataBufferSizeInMB", "FlushIndexBufferSizeInMB", "JobTrackerHost", "JobJarFileLocation");

    private UnusedSettings() {
    }

    static void check(ConfigNode storage) throws ConfigurationException {
        checkRing(storage);
        checkTuning(storage);
        // JobTrackerHost and JobJarFileLocation: free text that 0.6 read and never used either.
    }

    /** What only a node in a ring uses: a single node has no peers to find, watch or hand data to. */
    private static void checkRing(ConfigNode storage) throws ConfigurationException {
        storage.bool("AutoBootstrap", false);
        storage.bool("HintedHandoffEnabled", true);
        storage.listValues("Seeds", "Seed");
        storage.integer("StoragePort", 7000, 0, StorageConfLoader.MAX_PORT);
        // Read by early 0.6 releases (a UDP port for control messages).
        storage.integer("ControlPort", 7001, 0, StorageConfLoader.MAX_PORT);
        storage.integer("PhiConvictThreshold", 8, 5, 16);
        checkConsistencyChecks(storage);
    }

    /**
     * DoConsistencyChecksBoolean: 0.6 took any text, reading {@code true} in any case as true and
     * everything else as false, so any text loads; text that is neither true nor false is warned about.
     */
    private static void checkConsistencyChecks(ConfigNode storage) {
        Optional<ConfigValue> value = storage.value("DoConsistencyChecksBoolean");
        if (value.isEmpty()) {
            return;
        }
        try {
            value.get().asBoolean();
        } catch (ConfigurationException e) {
            log.warn("{}: {} is '{}', which 0.6 read as false; use true or false (it has no effect in Sibyl)",
                    storage.file(), value.get().path(), value.get().text());
        }
    }

    /** Buffers, thresholds and switches of 0.6's storage engine that Sibyl's engine does not have. */
    private static void checkTuning(ConfigNode storage) throws ConfigurationException {
        storage.bool("ThriftFramedTransport", false);
        storage.bool("SnapshotBeforeCompaction", false);
        Optional<ConfigValue> rowWarning = storage.value("RowWarningThresholdInMB");
        if (rowWarning.isPresent()) {
            // 0.6 required the threshold in bytes, a long, to be positive.
            rowWarning.get().asLong(1, Long.MAX_VALUE >> 20);
        }
        storage.integer("SlicedBufferSizeInKB", 64, Integer.MIN_VALUE, Integer.MAX_VALUE);
        storage.integer("BinaryMemtableThroughputInMB", 256, Integer.MIN_VALUE, Integer.MAX_VALUE);
        for (String decimal : new String[] {"FlushDataBufferSizeInMB", "FlushIndexBufferSizeInMB"}) {
            Optional<ConfigValue> value = storage.value(decimal);
            if (value.isPresent()) {
                value.get().asDecimal();
            }
        }
    }
}
