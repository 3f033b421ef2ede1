package sibyl.cluster;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Prepared statements by their text, prepared once on first use: behind the slots of
 * {@link TableStatements}, which ask here the first time each is needed (so two slots racing
 * prepare once), and the few statements of no table (the size estimates). Each is prepared with the
 * session's {@link RequestSettings}, which every statement bound from it then carries.
 */
final class Statements {
    private final CqlSession session;
    private final ClusterErrors errors;
    private final RequestSettings settings;
    private final ConcurrentMap<String, PreparedStatement> prepared = new ConcurrentHashMap<>();

    Statements(CqlSession session, ClusterErrors errors) {
        this.session = session;
        this.errors = errors;
        this.settings = RequestSettings.of(session.getContext().getConfig().getDefaultProfile());
    }

    /** What every request carries; a batch takes it from here, as it inherits nothing from its statements. */
    RequestSettings settings() {
        return settings;
    }

    ClusterErrors errors() {
        return errors;
    }

    /**
     * Prepares outside the map's lock: computeIfAbsent would hold it for a whole round trip, so while the
     * cluster does not answer, callers of other statements in the same bin queued up behind it, each past its
     * RPC timeout. Two callers may prepare one text at once; the driver answers both from one request. A
     * failure to prepare is the cluster's failure, as a request's is (UnavailableException, TimedOutException).
     */
    PreparedStatement get(String cql) {
        PreparedStatement p = prepared.get(cql);
        if (p != null) return p;
        p = errors.call(() -> session.prepare(settings.statement(cql)));
        PreparedStatement raced = prepared.putIfAbsent(cql, p);
        return raced != null ? raced : p;
    }

    /**
     * As {@link #get}, without waiting: for a call started on a network thread, or answered on one of the driver's
     * threads, where waiting for the cluster would hold up every other connection of that thread (and the driver
     * refuses it). Fails with the driver's exception.
     */
    CompletableFuture<PreparedStatement> getAsync(String cql) {
        PreparedStatement p = prepared.get(cql);
        if (p != null) return CompletableFuture.completedFuture(p);
        return session.prepareAsync(settings.statement(cql)).toCompletableFuture().thenApply(done -> {
            PreparedStatement raced = prepared.putIfAbsent(cql, done);
            return raced != null ? raced : done;
        });
    }
}
