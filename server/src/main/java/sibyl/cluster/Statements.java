package sibyl.cluster;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Prepared statements by their text, prepared once on first use. The texts come from a few
 * templates per table (bounds present or not, order), so the map stays small.
 */
final class Statements {
    private final CqlSession session;
    private final ConcurrentMap<String, PreparedStatement> prepared = new ConcurrentHashMap<>();

    Statements(CqlSession session) {
        this.session = session;
    }

    PreparedStatement get(String cql) {
        PreparedStatement p = prepared.get(cql);
        return p != null ? p : prepared.computeIfAbsent(cql, session::prepare);
    }
}
