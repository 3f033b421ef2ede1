package sibyl.thrift;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.util.Set;
import java.util.TreeSet;
import org.apache.cassandra.thrift.Cassandra;
import org.junit.jupiter.api.Test;

/** The table of calls covers the interface as the generated processor did. */
class CassandraCallsTest {
    @Test
    void everyMethodOfTheInterfaceHasACallAndNoOtherHasOne() {
        Set<String> methods = new TreeSet<>();
        for (Method m : Cassandra.Iface.class.getMethods()) methods.add(m.getName());
        for (String m : methods) assertTrue(CassandraCalls.exists(m), m);
        Set<String> functions = new TreeSet<>(CassandraCalls.functions().keySet());
        assertEquals(methods, functions);
        assertEquals(new TreeSet<>(new Cassandra.Processor<Cassandra.Iface>(null).getProcessMapView().keySet()),
                functions, "the generated processor's methods");
    }

    @Test
    void batchMutateIsDecodedByItsOwnReader() {
        assertEquals(BatchMutateArgs.class,
                CassandraCalls.functions().get("batch_mutate").getEmptyArgsInstance().getClass());
    }
}
