package sibyl.config;

import static sibyl.config.Setting.Absent.required;
import static sibyl.config.Setting.Absent.unset;
import static sibyl.config.Setting.Absent.value;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import sibyl.config.ChildSetting.OnChange;

/**
 * Every child of Sibyl's {@code <Cluster>}, each declared once ({@link ChildSetting}), in the order
 * they are read and a reload compares them; so a file with several faults is refused for the first
 * of them in this order. Only the shape of the settings is checked here; whether the cluster is
 * reachable and its tables fit is decided at start-up, by the cluster backend. docs/configuration.md
 * §Cluster documents them, and a test holds the two together.
 */
public final class ClusterSettings {
    static final int DEFAULT_CQL_PORT = 9042;
    /** Cassandra's own limit on keyspace and table names (CQL identifiers of letters, digits and _). */
    static final int MAX_CQL_NAME_LENGTH = 48;
    private static final String CQL_NAME = "[A-Za-z0-9_]+";
    private static final String MISSING = "required element is missing";
    private static final String CONTACT_POINTS_MISSING = MISSING + "; name at least one node of the cluster as host"
            + " or host:port (the CQL port, " + DEFAULT_CQL_PORT + " if not given)";
    private static final String CONNECTS_AT_START = "the node connects to the cluster when it starts; restart it"
            + " to apply this";

    public static final ChildSetting<ClusterConf, List<ClusterConf.ContactPoint>> CONTACT_POINTS =
            ChildSetting.element("ContactPoints", required(CONTACT_POINTS_MISSING), restart(),
                    ClusterSettings::contactPoints, ClusterConf::contactPoints);
    public static final ChildSetting<ClusterConf, String> LOCAL_DATACENTER = ChildSetting.parsed("LocalDatacenter",
            required(MISSING), restart(), (value, earlier) -> value.text(), ClusterConf::localDatacenter);
    public static final ChildSetting<ClusterConf, String> USERNAME = ChildSetting.parsed("Username", unset(),
            restart(), (value, earlier) -> value.text(), ClusterConf::username);
    /** Given exactly with a Username; a change is refused without showing either password. */
    public static final ChildSetting<ClusterConf, String> PASSWORD = ChildSetting.element("Password", unset(),
            restart(), (cluster, earlier) -> {
                Optional<ConfigValue> password = cluster.value("Password");
                boolean username = earlier.get(USERNAME) != null;
                if (username != password.isPresent()) {
                    throw cluster.error(username ? "Password" : "Username",
                            MISSING + ": Username and Password go together");
                }
                return password.map(ConfigValue::text).orElse(null);
            }, ClusterConf::password).describedAs(ClusterSettings::secretChanged);
    /** A JKS or PKCS12 file, relative to the install directory; given, the connection uses TLS. */
    public static final ChildSetting<ClusterConf, Path> TRUST_STORE = ChildSetting.parsed("TrustStore", unset(),
            restart(), (value, earlier) -> {
                Path trustStore = value.asDirectory(earlier.installDirectory());
                if (!Files.isRegularFile(trustStore)) {
                    throw value.error("trust store " + trustStore + " is not a readable file");
                }
                return trustStore;
            }, ClusterConf::trustStore);
    public static final ChildSetting<ClusterConf, String> TRUST_STORE_PASSWORD = ChildSetting.parsed(
            "TrustStorePassword", unset(), restart(), (value, earlier) -> {
                if (earlier.get(TRUST_STORE) == null) throw value.error("given without a TrustStore");
                return value.text();
            }, ClusterConf::trustStorePassword).describedAs(ClusterSettings::secretChanged);
    /** Absent: the node's RpcTimeoutInMillis. */
    public static final ChildSetting<ClusterConf, Integer> REQUEST_TIMEOUT_IN_MILLIS = ChildSetting.element(
            "RequestTimeoutInMillis", unset(), restart(), (cluster, earlier) -> {
                Optional<ConfigValue> timeout = cluster.value("RequestTimeoutInMillis");
                return timeout.isPresent() ? timeout.get().asInt(1, Integer.MAX_VALUE)
                        : earlier.global(NodeSettings.RPC_TIMEOUT_IN_MILLIS);
            }, ClusterConf::requestTimeoutInMillis);
    public static final ChildSetting<ClusterConf, Integer> CONNECT_TIMEOUT_IN_SECONDS = ChildSetting.parsed(
            "ConnectTimeoutInSeconds", value("30"), restart(), (value, earlier) -> value.asInt(1, Integer.MAX_VALUE),
            ClusterConf::connectTimeoutInSeconds);
    /** Absent: no prefix. Every keyspace and column family name, prefixed, must make a CQL name. */
    public static final ChildSetting<ClusterConf, String> KEYSPACE_PREFIX = ChildSetting.element("KeyspacePrefix",
            unset(), restart(), (cluster, earlier) -> {
                Optional<ConfigValue> value = cluster.value("KeyspacePrefix");
                String prefix = value.map(ConfigValue::text).orElse("");
                if (!prefix.isEmpty() && !prefix.matches(CQL_NAME)) {
                    throw value.get().error("'" + prefix + "' cannot begin a CQL keyspace name:"
                            + " use only letters, digits and _");
                }
                checkCqlNames(cluster.file(), prefix, earlier.global(NodeSettings.KEYSPACES));
                return prefix;
            }, ClusterConf::keyspacePrefix);
    /** Per keyspace; {@link ConfigDiff} compares it keyspace by keyspace. */
    public static final ChildSetting<ClusterConf, Map<String, Map<String, Integer>>> DATACENTER_REPLICATION =
            ChildSetting.element("DatacenterReplication", unset(), OnChange.byPart(),
                    (cluster, earlier) -> datacenterReplication(cluster, earlier.global(NodeSettings.KEYSPACES)),
                    ClusterConf::datacenterReplication);
    /** Absent: this node's own address alone. */
    public static final ChildSetting<ClusterConf, List<String>> THRIFT_ENDPOINTS = ChildSetting.element(
            "ThriftEndpoints", unset(), restart(), (cluster, earlier) -> thriftEndpoints(cluster),
            ClusterConf::thriftEndpoints);

    /** In the order they are read and compared. */
    public static final List<ChildSetting<ClusterConf, ?>> ALL = List.of(CONTACT_POINTS, LOCAL_DATACENTER, USERNAME,
            PASSWORD, TRUST_STORE, TRUST_STORE_PASSWORD, REQUEST_TIMEOUT_IN_MILLIS, CONNECT_TIMEOUT_IN_SECONDS,
            KEYSPACE_PREFIX, DATACENTER_REPLICATION, THRIFT_ENDPOINTS);

    private ClusterSettings() {
    }

    private static OnChange restart() {
        return OnChange.restart(CONNECTS_AT_START);
    }

    /** A secret's change, said without showing it. */
    private static String secretChanged(String was, String is) {
        return "changed";
    }

    /** {@code <ContactPoints><ContactPoint>host:port</ContactPoint>...</ContactPoints>}, at least one. */
    private static List<ClusterConf.ContactPoint> contactPoints(ConfigNode cluster, ChildValues earlier)
            throws ConfigurationException {
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
        if (contactPoints.isEmpty()) throw cluster.error("ContactPoints/ContactPoint", CONTACT_POINTS_MISSING);
        return contactPoints;
    }

    /** Each keyspace's name, after {@code prefix}, and each of its column families' names must be CQL names. */
    private static void checkCqlNames(Path file, String prefix, List<KeyspaceConf> keyspaces)
            throws ConfigurationException {
        for (KeyspaceConf ks : keyspaces) {
            String cqlName = prefix + ks.name();
            if (!isCqlName(cqlName)) {
                throw new ConfigurationException(file, ElementPath.keyspace(ks.name()) + "/@Name", "the cluster"
                        + " cannot hold keyspace '" + cqlName + "': a CQL keyspace name has only letters, digits"
                        + " and _, at most " + MAX_CQL_NAME_LENGTH + " of them");
            }
            for (ColumnFamilyConf cf : ks.columnFamilies()) {
                if (!isCqlName(cf.name())) {
                    throw new ConfigurationException(file, ElementPath.columnFamilyAttribute(ks.name(), cf.name(),
                            "Name"), "the cluster cannot hold column family '" + cf.name() + "': a CQL table name"
                            + " has only letters, digits and _, at most " + MAX_CQL_NAME_LENGTH + " of them");
                }
            }
        }
    }

    private static boolean isCqlName(String name) {
        return name.matches(CQL_NAME) && name.length() <= MAX_CQL_NAME_LENGTH;
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
