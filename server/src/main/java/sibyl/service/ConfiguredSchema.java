package sibyl.service;

import java.util.ArrayList;
import java.util.List;
import sibyl.config.ColumnFamilyConf;
import sibyl.config.KeyspaceConf;
import sibyl.config.StorageConf;
import sibyl.db.CFMetaData;
import sibyl.db.KSMetaData;
import sibyl.db.SystemKeyspace;
import sibyl.db.marshal.MarshalTypes;

/** Maps the keyspaces of storage-conf.xml onto the db layer's metadata. */
public final class ConfiguredSchema {
    private ConfiguredSchema() {
    }

    /** The configured keyspaces in file order, followed by the implicit {@code system} keyspace. */
    public static List<KSMetaData> keyspaces(StorageConf conf) {
        List<KSMetaData> all = new ArrayList<>();
        for (KeyspaceConf ks : conf.keyspaces()) {
            List<CFMetaData> cfs = new ArrayList<>();
            for (ColumnFamilyConf cf : ks.columnFamilies()) {
                cfs.add(new CFMetaData(ks.name(), cf.name(), cf.isSuper(),
                        MarshalTypes.forName(cf.compareWith()),
                        cf.isSuper() ? MarshalTypes.forName(cf.compareSubcolumnsWith()) : null,
                        cf.comment()));
            }
            all.add(new KSMetaData(ks.name(), ks.replicationFactor(), cfs));
        }
        all.add(SystemKeyspace.metadata());
        return all;
    }
}
