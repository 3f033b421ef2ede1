package sibyl.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static sibyl.config.ConfXml.load;
import static sibyl.config.ConfXml.minimalPlus;
import static sibyl.config.ConfXml.refused;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Cluster/ThriftEndpoints: the Sibyl nodes describe_ring names in cluster mode. */
class ThriftEndpointsConfTest {
    private static final String ELEMENT = "Storage/Cluster/ThriftEndpoints";

    @TempDir
    Path dir;

    private static String cluster(String endpoints) {
        return minimalPlus("<Cluster><ContactPoints><ContactPoint>10.0.0.1</ContactPoint></ContactPoints>"
                + "<LocalDatacenter>dc1</LocalDatacenter>" + endpoints + "</Cluster>");
    }

    private static String endpoints(String... addresses) {
        StringBuilder s = new StringBuilder("<ThriftEndpoints>");
        for (String a : addresses) s.append("<ThriftEndpoint>").append(a).append("</ThriftEndpoint>");
        return s.append("</ThriftEndpoints>").toString();
    }

    @Test
    void absentMeansThisNodeAlone() throws Exception {
        assertEquals(List.of(), load(dir, cluster("")).cluster().orElseThrow().thriftEndpoints());
    }

    @Test
    void addressesInTheirOrder() throws Exception {
        assertEquals(List.of("10.0.1.5", "sibyl-2.example.com", "fe80::1"),
                load(dir, cluster(endpoints("10.0.1.5", "sibyl-2.example.com", "fe80::1"))).cluster().orElseThrow()
                        .thriftEndpoints());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "10.0.1.5:9160 | names a port",
            "sibyl-2:9160 | names a port or is no address",
            "[fe80::1] | without brackets"})
    void anAddressWithAPortIsRefused(String address, String problem) {
        refused(dir, cluster(endpoints(address)), ELEMENT + "/ThriftEndpoint[1]", problem);
    }

    @Test
    void twiceIsRefused() {
        refused(dir, cluster(endpoints("10.0.1.5", "10.0.1.5")), ELEMENT + "/ThriftEndpoint[2]", "given twice");
    }

    @Test
    void anEmptyListIsRefused() {
        refused(dir, cluster("<ThriftEndpoints></ThriftEndpoints>"), ELEMENT + "/ThriftEndpoint",
                "name every Sibyl node");
    }
}
