package sibyl.thrift20;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Method;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import sibyl.iface.v20.Cassandra;

/** The table of calls covers the 0.7+ interface as its generated processor does. */
class Cassandra20CallsTest {
    @Test
    void everyMethodOfTheInterfaceHasACallAndNoOtherHasOne() {
        Set<String> methods = new TreeSet<>();
        for (Method m : Cassandra.Iface.class.getMethods()) methods.add(m.getName());
        assertEquals(methods, new TreeSet<>(Cassandra20Calls.TABLE.functions().keySet()));
        assertEquals(new TreeSet<>(new Cassandra.Processor<Cassandra.Iface>(null).getProcessMapView().keySet()),
                methods, "the generated processor's methods");
        for (String m : methods) assertEquals(true, Cassandra20ProcessorFactory.serves(m), m);
    }
}
