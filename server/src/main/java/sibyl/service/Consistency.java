package sibyl.service;

/**
 * How many replicas a read or write waits for, in 0.6's terms (docs/thrift-api.md §Types,
 * docs/semantics.md §Consistency).
 * A store of one node meets every level with itself; a store over a cluster maps each onto the
 * cluster's own levels.
 */
public enum Consistency {
    /** Writes only: acknowledged before anything is written. */
    ZERO,
    ONE,
    QUORUM,
    /** A quorum of the replicas in the local datacenter. */
    DCQUORUM,
    /** A quorum of the replicas in every datacenter. */
    DCQUORUMSYNC,
    ALL,
    /** Writes only: written anywhere, a hint included. */
    ANY
}
