package sibyl.client.cli;

import java.util.List;

/**
 * {@code Keyspace.ColumnFamily['key']['name']...}: what a get, set, count or del statement addresses.
 * {@code levels} holds the bracketed literals: the row key first, then (super) column names.
 */
record CellPath(String keyspace, String columnFamily, List<Literal> levels) {

    Literal key() {
        return levels.get(0);
    }

    /** The name at bracket {@code i} (1 = first name after the key). */
    Literal name(int i) {
        return levels.get(i);
    }

    /** Number of names after the key. */
    int depth() {
        return levels.size() - 1;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(keyspace).append('.').append(columnFamily);
        for (Literal l : levels) {
            sb.append('[').append(l.display()).append(']');
        }
        return sb.toString();
    }
}
