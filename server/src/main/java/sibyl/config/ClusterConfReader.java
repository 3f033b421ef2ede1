package sibyl.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads Sibyl's {@code Storage/Cluster} element (see {@link ClusterConf}). Only the shape of the
 * settings is checked here; whether the cluster is reachable and its tables fit is decided at
 * start-up, by the cluster backend.
 */
final class ClusterConfReader {
    static final int DEFAULT_CQL_PORT = 9042;
    static final int DEFAULT_CONNECT_TIMEOUT_IN_SECONDS = 30;
    /** Cassandra's own limit on keyspace and table names (CQL identifiers of letters, digits and _). */
    static final int MAX_CQL_NAME_LENGTH = 48;

    private static final Set<String> CHILDREN = Set.of("ContactPoints", "LocalDatacenter", "Username", "Password",
            "TrustStore", "TrustStorePassword", "RequestTimeoutInMillis", "ConnectTimeoutInSeconds", "KeyspacePrefix",
            "DatacenterReplication", "ThriftEndpoints");

    private ClusterConfReader() {
    }

    /**
     * @param rpcTimeoutInMillis RpcTimeoutInMillis, the default request timeout
     * @param keyspaces          the configured keyspaces, which DatacenterReplication must name
     */
    static Optional<ClusterConf> read(ConfigNode storage, Path install, int rpcTimeoutInMillis,
                                      List<KeyspaceConf> keyspaces) throws ConfigurationException {
        Optional<ConfigNode> found = storage.child("Cluster");
        if (found.isEmpty()) return Optional.empty();
        ConfigNode cluster = found.get();
        cluster.warnUnknown(CHILDREN, Set.of());

        List<ClusterConf.ContactPoint> contactPoints = new ArrayList<>();
        Optional<ConfigNode> list = cluster.child("ContactPoints");
        if (list.isPresent()) {
            list.get().warnUnknown(Set.of("ContactPoint"), Set.of());
            for (ConfigNode point : list.get().children("ContactPoint")) {
                point.warnUnknown(Set.of(), Set.of());
                Optional<ConfigValue> text = point.text();
                if (text.isPresent()) contactPoints.add(contactPoint(text.get()));
            }
        }
        if (contactPoints.isEmpty()) {
            throw cluster.error("ContactPoints/ContactPoint", "required element is missing; name at least one node"
                    + " of the cluster as host or host:port (the CQL port, " + DEFAULT_CQL_PORT + " if not given)");
        }
        String localDatacenter = cluster.requiredValue("LocalDatacenter").text();

        Optional<ConfigValue> username = cluster.value("Username");
        Optional<ConfigValue> password = cluster.value("Password");
        if (username.isPresent() != password.isPresent()) {
            throw cluster.error(username.isPresent() ? "Password" : "Username",
                    "required element is missing: Username and Password go together");
        }
        Path trustStore = null;
        Optional<ConfigValue> store = cluster.value("TrustStore");
        if (store.isPresent()) {
            trustStore = store.get().asDirectory(install);
            if (!Files.isRegularFile(trustStore)) {
                throw store.get().error("trust store " + trustStore + " is not a readable file");
            }
        }
        Optional<ConfigValue> storePassword = cluster.value("TrustStorePassword");
        if (storePassword.isPresent() && trustStore == null) {
            throw storePassword.get().error("given without a TrustStore");
        }
        int requestTimeout = cluster.value("RequestTimeoutInMillis").isPresent()
                ? cluster.value("RequestTimeoutInMillis").get().asInt(1, Integer.MAX_VALUE) : rpcTimeoutInMillis;
        int connectTimeout = cluster.value("ConnectTimeoutInSeconds").isPresent()
                ? cluster.value("ConnectTimeoutInSeconds").get().asInt(1, Integer.MAX_VALUE)
                : DEFAULT_CONNECT_TIMEOUT_IN_SECONDS;
        String prefix = cluster.value("KeyspacePrefix").map(ConfigValue::text).orElse("");
        if (!prefix.isEmpty() && !prefix.matches("[A-Za-z0-9_]+")) {
            throw cluster.value("KeyspacePrefix").get().error("'" + prefix + "' cannot begin a CQL keyspace name:"
                    + " use only letters, digits and _");
        }
        for (KeyspaceConf ks : keyspaces) {
            String cqlName = prefix + ks.name();
            if (!cqlName.matches("[A-Za-z0-9_]+") || cqlName.length() > MAX_CQL_NAME_LENGTH) {
                throw storage.error("Keyspaces/Keyspace[@Name='" + ks.name() + "']/@Name", "the cluster cannot hold"
                        + " keyspace '" + cqlName + "': a CQL keyspace name has only letters, digits and _, at most "
                        + MAX_CQL_NAME_LENGTH + " of them");
            }
            for (ColumnFamilyConf cf : ks.columnFamilies()) {
                if (!cf.name().matches("[A-Za-z0-9_]+") || cf.name().length() > MAX_CQL_NAME_LENGTH) {
                    throw storage.error("Keyspaces/Keyspace[@Name='" + ks.name() + "']/ColumnFamily[@Name='"
                            + cf.name() + "']/@Name", "the cluster cannot hold column family '" + cf.name()
                            + "': a CQL table name has only letters, digits and _, at most "
                            + MAX_CQL_NAME_LENGTH + " of them");
                }
            }
        }
        return Optional.of(new ClusterConf(contactPoints, localDatacenter, username.map(ConfigValue::text).orElse(null),
                password.map(ConfigValue::text).orElse(null), trustStore,
                storePassword.map(ConfigValue::text).orElse(null), requestTimeout, connectTimeout, prefix,
                datacenterReplication(cluster, keyspaces), storage.file(), thriftEndpoints(cluster)));
    }

    /**
     * {@code <ThriftEndpoints><ThriftEndpoint>10.0.0.5</ThriftEndpoint>...</ThriftEndpoints>}: addresses without a
     * port, since 0.6's clients pair each endpoint of the ring with the Thrift port they were given.
     */
    private static List<String> thriftEndpoints(ConfigNode cluster) throws ConfigurationException {
        Optional<ConfigNode> list = cluster.child("ThriftEndpoints");
        if (list.isEmpty()) return List.of();
        list.get().warnUnknown(Set.of("ThriftEndpoint"), Set.of());
        List<String> endpoints = new ArrayList<>();
        for (ConfigNode endpoint : list.get().children("ThriftEndpoint")) {
            endpoint.warnUnknown(Set.of(), Set.of());
            Optional<ConfigValue> text = endpoint.text();
            if (text.isEmpty()) continue;
            String address = text.get().text();
            if (address.startsWith("[")) {
                throw text.get().error("'" + address + "': write an IPv6 address without brackets and without a port;"
                        + " clients connect to it on their Thrift port");
            }
            if (address.indexOf(':') >= 0 && !address.matches("[0-9A-Fa-f:.]+")) {
                throw text.get().error("'" + address + "' names a port or is no address: give the host alone;"
                        + " clients connect to it on their Thrift port (ThriftPort)");
            }
            if (address.indexOf(':') >= 0 && address.indexOf(':') == address.lastIndexOf(':')) {
                throw text.get().error("'" + address + "' names a port: give the host alone; clients connect to it"
                        + " on their Thrift port (ThriftPort)");
            }
            if (endpoints.contains(address)) throw text.get().error("'" + address + "' is given twice");
            endpoints.add(address);
        }
        if (endpoints.isEmpty()) {
            throw list.get().error("ThriftEndpoint", "required element is missing; name every Sibyl node of this"
                    + " deployment, this one included, or leave ThriftEndpoints out");
        }
        return endpoints;
    }

    /** {@code host}, {@code host:port}, {@code [v6]} or {@code [v6]:port}. */
    private static ClusterConf.ContactPoint contactPoint(ConfigValue value) throws ConfigurationException {
        String text = value.text();
        String host;
        String port = null;
        if (text.startsWith("[")) {
            int close = text.indexOf(']');
            if (close < 0) throw value.error("'" + text + "' lacks the ] closing its IPv6 address");
            host = text.substring(1, close);
            String rest = text.substring(close + 1);
            if (!rest.isEmpty()) {
                if (!rest.startsWith(":")) throw value.error("expected host:port, found '" + text + "'");
                port = rest.substring(1);
            }
        } else {
            int colon = text.indexOf(':');
            if (colon >= 0 && text.indexOf(':', colon + 1) >= 0) {
                throw value.error("'" + text + "' looks like an IPv6 address: write it in brackets, [addr]:port");
            }
            host = colon < 0 ? text : text.substring(0, colon);
            port = colon < 0 ? null : text.substring(colon + 1);
        }
        if (host.isEmpty()) throw value.error("no host in '" + text + "'");
        if (port == null) return new ClusterConf.ContactPoint(host, DEFAULT_CQL_PORT);
        int p;
        try {
            p = Integer.parseInt(port);
        } catch (NumberFormatException e) {
            throw value.error("expected host:port with a port number, found '" + text + "'");
        }
        if (p < 1 || p > NodeSettings.MAX_PORT) {
            throw value.error("port must be between 1 and " + NodeSettings.MAX_PORT + ", found " + p);
        }
        return new ClusterConf.ContactPoint(host, p);
    }

    /**
     * {@code <DatacenterReplication Keyspace="K"><Datacenter Name="dc1">3</Datacenter>...</DatacenterReplication>}
     * for each keyspace to place with NetworkTopologyStrategy.
     */
    private static Map<String, Map<String, Integer>> datacenterReplication(ConfigNode cluster,
                                                                            List<KeyspaceConf> keyspaces)
            throws ConfigurationException {
        Map<String, Map<String, Integer>> all = new LinkedHashMap<>();
        for (ConfigNode node : cluster.children("DatacenterReplication")) {
            node.warnUnknown(Set.of("Datacenter"), Set.of("Keyspace"));
            ConfigValue keyspace = node.attribute("Keyspace")
                    .orElseThrow(() -> node.error("@Keyspace", "required attribute is missing"));
            if (keyspaces.stream().noneMatch(ks -> ks.name().equals(keyspace.text()))) {
                throw keyspace.error("no keyspace '" + keyspace.text() + "' is configured");
            }
            Map<String, Integer> factors = new LinkedHashMap<>();
            for (ConfigNode dc : node.namedChildren("Datacenter")) {
                dc.warnUnknown(Set.of(), Set.of("Name"));
                ConfigValue name = dc.attribute("Name")
                        .orElseThrow(() -> dc.error("@Name", "required attribute is missing"));
                ConfigValue factor = dc.text().orElseThrow(() -> dc.error("the replication factor is missing"));
                if (factors.put(name.text(), factor.asInt(0, Integer.MAX_VALUE)) != null) {
                    throw dc.error("datacenter '" + name.text() + "' is given twice");
                }
            }
            if (factors.isEmpty()) throw node.error("Datacenter", "required element is missing; give at least one");
            if (all.put(keyspace.text(), factors) != null) {
                throw keyspace.error("keyspace '" + keyspace.text() + "' has two DatacenterReplication elements");
            }
        }
        return all;
    }
}
