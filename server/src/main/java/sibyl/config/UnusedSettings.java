package sibyl.config;

import static sibyl.config.Setting.Absent.required;
import static sibyl.config.Setting.Absent.unset;
import static sibyl.config.Setting.Absent.value;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The global settings of a 0.6 file that have no effect in Sibyl ({@link AppliesTo#NOTHING}):
 * checked so that a file 0.6 started with loads, and refused where 0.6 refused, but not kept in
 * {@link StorageConf}, since nothing would read them. Their defaults are 0.6's, for the record.
 *
 * <p>Each is accepted exactly as 0.6 accepted it, because no value can harm a node that does
 * not use it: where 0.6 parsed a whole number without a range, any whole number will do; where
 * it parsed a decimal, any finite decimal.
 */
final class UnusedSettings {
    /** Warnings go to the loader's logger: that is where a user (and a test) looks for them. */
    private static final Logger log = LoggerFactory.getLogger(StorageConfLoader.class);
    private static final int ANY = Integer.MAX_VALUE;

    // What only a node in a ring uses: a single node has no peers to find, watch or hand data to.
    private static final Setting<Boolean> AUTO_BOOTSTRAP = Setting.bool("AutoBootstrap", value("false"),
            AppliesTo.NOTHING);
    private static final Setting<Boolean> HINTED_HANDOFF_ENABLED = Setting.bool("HintedHandoffEnabled",
            value("true"), AppliesTo.NOTHING);
    private static final Setting<List<ConfigValue>> SEEDS = Setting.read("Seeds",
            required("required element is missing; at least one is needed"), AppliesTo.NOTHING,
            (storage, earlier) -> storage.listValues("Seeds", "Seed"));
    private static final Setting<Integer> STORAGE_PORT = Setting.integer("StoragePort", value("7000"),
            AppliesTo.NOTHING, 0, NodeSettings.MAX_PORT);
    /** Read by early 0.6 releases (a UDP port for control messages). */
    private static final Setting<Integer> CONTROL_PORT = Setting.integer("ControlPort", value("7001"),
            AppliesTo.NOTHING, 0, NodeSettings.MAX_PORT);
    private static final Setting<Integer> PHI_CONVICT_THRESHOLD = Setting.integer("PhiConvictThreshold",
            value("8"), AppliesTo.NOTHING, 5, 16);
    private static final Setting<Boolean> DO_CONSISTENCY_CHECKS = Setting.read("DoConsistencyChecksBoolean",
            value("true"), AppliesTo.NOTHING, (storage, earlier) -> {
                checkConsistencyChecks(storage);
                return null;
            });

    // Buffers, thresholds and switches of 0.6's storage engine that Sibyl's engine does not have.
    private static final Setting<Boolean> THRIFT_FRAMED_TRANSPORT = Setting.bool("ThriftFramedTransport",
            value("false"), AppliesTo.NOTHING);
    /** 0.6 required the threshold in bytes, a long, to be positive. */
    private static final Setting<Long> ROW_WARNING_THRESHOLD_IN_MB = Setting.read("RowWarningThresholdInMB",
            value("512"), AppliesTo.NOTHING, (storage, earlier) -> {
                Optional<ConfigValue> value = storage.value("RowWarningThresholdInMB");
                return value.isPresent() ? value.get().asLong(1, Long.MAX_VALUE >> 20) : null;
            });
    private static final Setting<Integer> SLICED_BUFFER_SIZE_IN_KB = Setting.integer("SlicedBufferSizeInKB",
            value("64"), AppliesTo.NOTHING, Integer.MIN_VALUE, ANY);
    private static final Setting<Integer> BINARY_MEMTABLE_THROUGHPUT_IN_MB = Setting.integer(
            "BinaryMemtableThroughputInMB", value("256"), AppliesTo.NOTHING, Integer.MIN_VALUE, ANY);
    private static final Setting<Double> FLUSH_DATA_BUFFER_SIZE_IN_MB = Setting.parsed("FlushDataBufferSizeInMB",
            value("32"), AppliesTo.NOTHING, (value, install) -> value.asDecimal());
    private static final Setting<Double> FLUSH_INDEX_BUFFER_SIZE_IN_MB = Setting.parsed("FlushIndexBufferSizeInMB",
            value("8"), AppliesTo.NOTHING, (value, install) -> value.asDecimal());
    // Free text that 0.6 read and never used either; not even looked at.
    private static final Setting<String> JOB_TRACKER_HOST = Setting.read("JobTrackerHost", unset(),
            AppliesTo.NOTHING, (storage, earlier) -> null);
    private static final Setting<String> JOB_JAR_FILE_LOCATION = Setting.read("JobJarFileLocation", unset(),
            AppliesTo.NOTHING, (storage, earlier) -> null);

    /** In the order the loader checks them. */
    static final List<Setting<?>> ALL = List.of(AUTO_BOOTSTRAP, HINTED_HANDOFF_ENABLED, SEEDS, STORAGE_PORT,
            CONTROL_PORT, PHI_CONVICT_THRESHOLD, DO_CONSISTENCY_CHECKS, THRIFT_FRAMED_TRANSPORT,
            ROW_WARNING_THRESHOLD_IN_MB, SLICED_BUFFER_SIZE_IN_KB, BINARY_MEMTABLE_THROUGHPUT_IN_MB,
            FLUSH_DATA_BUFFER_SIZE_IN_MB, FLUSH_INDEX_BUFFER_SIZE_IN_MB, JOB_TRACKER_HOST, JOB_JAR_FILE_LOCATION);

    /** The elements checked here; the shipped storage-conf.xml says of each that it has no effect. */
    static final Set<String> ELEMENTS = ALL.stream().map(Setting::element).collect(Collectors.toUnmodifiableSet());

    private UnusedSettings() {
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
}
