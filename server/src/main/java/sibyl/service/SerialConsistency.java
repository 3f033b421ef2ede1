package sibyl.service;

/**
 * Which replicas the Paxos round of a compare-and-set consults (docs/thrift-api-0.7.md §cas): those of every
 * datacenter, or of the local one only. A store of one node is its own only replica for both.
 */
public enum SerialConsistency {
    SERIAL,
    LOCAL_SERIAL
}
