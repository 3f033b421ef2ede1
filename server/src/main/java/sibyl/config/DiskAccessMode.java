package sibyl.config;

import java.util.Locale;
import java.util.Optional;

/** How SSTable data and index files are read: memory-mapped or with ordinary reads. */
public enum DiskAccessMode {
    /** mmap on a 64-bit JVM, standard otherwise. */
    AUTO,
    /** Memory-map data and index files. */
    MMAP,
    /** Memory-map index files only. */
    MMAP_INDEX_ONLY,
    /** Ordinary buffered reads. */
    STANDARD;

    /** The spelling used in storage-conf.xml ({@code auto}, {@code mmap_index_only}, ...). */
    public String configName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<DiskAccessMode> fromConfigName(String name) {
        for (DiskAccessMode mode : values()) {
            if (mode.configName().equalsIgnoreCase(name)) {
                return Optional.of(mode);
            }
        }
        return Optional.empty();
    }

    /** {@link #AUTO} made concrete for the running JVM; the other modes are returned unchanged. */
    public DiskAccessMode resolvedForThisJvm() {
        if (this != AUTO) {
            return this;
        }
        String dataModel = System.getProperty("sun.arch.data.model", "");
        String arch = System.getProperty("os.arch", "");
        boolean is64Bit = dataModel.equals("64") || (dataModel.isEmpty() && arch.contains("64"));
        return is64Bit ? MMAP : STANDARD;
    }
}
