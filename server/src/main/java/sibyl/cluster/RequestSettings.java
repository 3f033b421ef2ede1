package sibyl.cluster;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverExecutionProfile;
import com.datastax.oss.driver.api.core.cql.BatchStatementBuilder;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import java.time.Duration;
import java.util.Objects;

/**
 * The settings of a request that the driver reads from its configuration, per request, whenever the statement
 * leaves them unset: consistency and serial consistency (each a name looked up, then turned into its code),
 * page size, timeout and idempotence. Read here once from the session's configuration and set on each statement
 * when it is prepared, so every statement bound from it carries them and the driver takes them from the statement
 * instead. They are the configuration's own values, so requests go out as before: the same levels on the wire,
 * the same timeout (TimedOutException past RequestTimeoutInMillis), the same retries of idempotent requests.
 *
 * @param consistency       the level of a statement whose call sets none (every data call sets its own)
 * @param serialConsistency the serial level; Sibyl sends no conditional update, so it only fills the field
 * @param pageSize          rows per page of a read
 * @param timeout           how long a request may take (RequestTimeoutInMillis)
 * @param idempotent        whether the driver may send a request again to another node
 */
record RequestSettings(ConsistencyLevel consistency, ConsistencyLevel serialConsistency, int pageSize,
                       Duration timeout, boolean idempotent) {
    RequestSettings {
        Objects.requireNonNull(consistency, "consistency");
        Objects.requireNonNull(serialConsistency, "serialConsistency");
        Objects.requireNonNull(timeout, "timeout");
        if (pageSize <= 0) throw new IllegalArgumentException("page size must be positive: " + pageSize);
    }

    /** The values the driver would read from {@code profile} for a statement that sets none of them. */
    static RequestSettings of(DriverExecutionProfile profile) {
        return new RequestSettings(
                DefaultConsistencyLevel.valueOf(profile.getString(DefaultDriverOption.REQUEST_CONSISTENCY)),
                DefaultConsistencyLevel.valueOf(profile.getString(DefaultDriverOption.REQUEST_SERIAL_CONSISTENCY)),
                profile.getInt(DefaultDriverOption.REQUEST_PAGE_SIZE),
                profile.getDuration(DefaultDriverOption.REQUEST_TIMEOUT),
                profile.getBoolean(DefaultDriverOption.REQUEST_DEFAULT_IDEMPOTENCE));
    }

    /** The statement to prepare for {@code cql}: its bound statements inherit these settings. */
    SimpleStatement statement(String cql) {
        return SimpleStatement.builder(cql)
                .setConsistencyLevel(consistency)
                .setSerialConsistencyLevel(serialConsistency)
                .setPageSize(pageSize)
                .setTimeout(timeout)
                .setIdempotence(idempotent)
                .build();
    }

    /**
     * A batch with these settings at {@code level}: a batch inherits nothing from the statements in it. (The
     * driver 4.19's batch reports no timeout of its own, so for a batch the driver still reads that one.)
     */
    BatchStatementBuilder on(BatchStatementBuilder batch, ConsistencyLevel level) {
        return batch.setConsistencyLevel(level)
                .setSerialConsistencyLevel(serialConsistency)
                .setPageSize(pageSize)
                .setTimeout(timeout)
                .setIdempotence(idempotent);
    }
}
