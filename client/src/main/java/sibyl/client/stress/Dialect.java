package sibyl.client.stress;

import org.apache.cassandra.thrift.ConsistencyLevel;

/**
 * The Thrift dialect bin/stress speaks. The structs its calls carry (Column, Mutation, ColumnParent, ColumnPath,
 * SlicePredicate, KeyRange, KeySlice, ColumnOrSuperColumn) have the same field ids and wire types in both; the calls
 * themselves differ.
 */
enum Dialect {
    /** Cassandra 0.6, Sibyl's: every call names its keyspace; keys are strings. */
    V0_6("0.6"),
    /**
     * Cassandra 0.7 to 3.11: a connection names its keyspace once with set_keyspace, calls have no keyspace
     * argument (so every other argument's field id is one lower), keys are binary. Its servers speak framed
     * Thrift only.
     */
    V0_7("0.7");

    private final String label;

    Dialect(String label) {
        this.label = label;
    }

    static Dialect parse(String s) {
        for (Dialect d : values()) {
            if (d.label.equals(s)) {
                return d;
            }
        }
        throw new IllegalArgumentException("unknown dialect '" + s + "'; use 0.6 (Cassandra 0.6, Sibyl) or 0.7 "
                + "(Cassandra 0.7 to 3.11)");
    }

    String label() {
        return label;
    }

    /**
     * Refuses what this dialect cannot say: unframed transport (0.7 servers read frames only) and the consistency
     * levels whose numbers 0.7 gave other meanings (3 and 4) or dropped (ZERO). ONE, QUORUM, ALL and ANY keep
     * their numbers.
     */
    void check(boolean framed, ConsistencyLevel level) {
        if (this != V0_7) {
            return;
        }
        if (!framed) {
            throw new IllegalArgumentException("--dialect 0.7 needs --framed: Cassandra 0.7 to 3.11 speak framed "
                    + "Thrift only");
        }
        switch (level) {
            case ONE, QUORUM, ALL, ANY -> { }
            default -> throw new IllegalArgumentException("--dialect 0.7 takes consistency ONE, QUORUM, ALL or ANY, "
                    + "not " + level + " (0.6's numbering)");
        }
    }

    /** A codec for one connection's calls (it keeps that connection's sequence numbers). */
    DialectCodec codec(String keyspace, ConsistencyLevel level) {
        return this == V0_6 ? new Dialect06Codec(keyspace, level) : new Dialect07Codec(keyspace, level);
    }
}
