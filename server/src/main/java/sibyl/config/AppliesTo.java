package sibyl.config;

import java.util.Objects;

/**
 * Where in the node a global setting takes effect, and so what a reload can do with a change to
 * it (docs/configuration.md §Reloading without a restart): apply it live, refuse it saying why it
 * takes a restart, compare the element part by part, or ignore it.
 */
public enum AppliesTo {
    NODE_IDENTITY(Reload.RESTART, "the node's name and token are fixed when it starts; restart it to apply this"),
    PARTITIONER(Reload.RESTART, "every stored row is placed by the partitioner, so it is fixed when the node starts"
            + " (and must not change under data already stored)"),
    AUTHENTICATOR(Reload.RESTART, "clients are logged in by the authenticator the node started with;"
            + " restart it to apply this"),
    DIRECTORIES(Reload.RESTART, "the node keeps its files where it found them at start-up; restart it to apply this"),
    COMMIT_LOG(Reload.RESTART, "the commit log is opened with this setting at start-up; restart the node to apply it"),
    SOCKETS(Reload.RESTART, "the node binds its sockets when it starts; restart it to apply this"),
    FRONT_END(Reload.RESTART, "the client front end is built with this setting at start-up;"
            + " restart the node to apply it"),
    SSTABLES(Reload.RESTART, "the node's SSTables are written and read with this setting from start-up on;"
            + " restart the node to apply it"),
    /** When memtables are flushed: checked at each write and each age check. */
    MEMTABLES(Reload.LIVE, null),
    /** How long tombstones are kept: read at each compaction. */
    TOMBSTONES(Reload.LIVE, null),
    /** The keyspaces and column families, compared one by one. */
    SCHEMA(Reload.BY_PART, null),
    /** The cluster backend's element, compared child by child. */
    CLUSTER(Reload.BY_PART, null),
    /** Checked as 0.6 checked it, then not used (ring settings, 0.6's own engine's buffers). */
    NOTHING(Reload.NO_EFFECT, null);

    /** What a reload does with a change. */
    public enum Reload {
        /** Applied while the node runs. */
        LIVE,
        /** Refused: the node must restart. */
        RESTART,
        /** Compared part by part, some parts live and some not. */
        BY_PART,
        /** Nothing: the setting has no effect. */
        NO_EFFECT
    }

    private final Reload reload;
    private final String restartReason;

    AppliesTo(Reload reload, String restartReason) {
        this.reload = reload;
        this.restartReason = restartReason;
        if ((reload == Reload.RESTART) != (restartReason != null)) {
            throw new IllegalArgumentException("a reason is given exactly for restart-only settings: " + name());
        }
    }

    public Reload reload() {
        return reload;
    }

    /** Why a change here takes a restart, as a refusal says it. */
    public String restartReason() {
        return Objects.requireNonNull(restartReason, () -> name() + " does not take a restart");
    }
}
