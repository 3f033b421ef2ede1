package sibyl.cluster;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Prepared statements by their text, prepared once on first use: behind the slots of
 * {@link TableStatements}, which ask here the first time each is needed (so two slots racing
 * prepare once), and the few statements of no table (the size estimates).
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
