package sibyl.config;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The values read from one structured element (a column family, a keyspace, the cluster), each
 * under its {@link ChildSetting}, with the global settings read before the element: a setting
 * that depends on another reads it here.
 */
final class ChildValues {
    private final StorageConf.Builder global;
    private final Map<ChildSetting<?, ?>, Object> values = new HashMap<>();

    private ChildValues(StorageConf.Builder global) {
        this.global = global;
    }

    /**
     * Reads each of {@code settings} from {@code node} in their order, having warned about the
     * children and attributes none of them names (nor {@code alsoAttributes}).
     */
    static ChildValues read(List<? extends ChildSetting<?, ?>> settings, ConfigNode node, Set<String> alsoAttributes,
                            StorageConf.Builder global) throws ConfigurationException {
        node.warnUnknown(ChildSetting.elements(settings), Stream.concat(
                ChildSetting.attributes(settings).stream(), alsoAttributes.stream()).collect(Collectors.toSet()));
        ChildValues read = new ChildValues(global);
        for (ChildSetting<?, ?> setting : settings) {
            read.values.put(setting, setting.read(node, read));
        }
        return read;
    }

    /** A setting of this element read before; null when it has no value. */
    @SuppressWarnings("unchecked") // read() puts each setting's own value
    <T> T get(ChildSetting<?, T> setting) {
        return (T) values.get(setting);
    }

    /** A global setting, read before this element. */
    <T> T global(Setting<T> setting) {
        return global.get(setting);
    }

    /** The global settings, for an element within this one. */
    StorageConf.Builder global() {
        return global;
    }

    Path installDirectory() {
        return global.installDirectory();
    }
}
