package sibyl.client.cli;

import java.util.List;
import java.util.Map;
import sibyl.client.HostAddress;

/** One parsed statement of the 0.7+ cli (Cassandra 0.7 to 1.2's cassandra-cli). */
sealed interface Statement07 {

    /** A key, name or value: a literal, or a conversion function applied to one ({@code literal} null: none). */
    record Term(Literal literal, String function) {
        String display() {
            if (function == null) {
                return literal.display();
            }
            return function + "(" + (literal == null ? "" : literal.display()) + ")";
        }
    }

    /** {@code CF['key']['name']...}: the row key first, then (super) column names. */
    record Path(String columnFamily, List<Term> levels) {
        Term key() {
            return levels.get(0);
        }

        /** Number of names after the key. */
        int depth() {
            return levels.size() - 1;
        }

        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder(columnFamily);
            for (Term t : levels) {
                sb.append('[').append(t.display()).append(']');
            }
            return sb.toString();
        }
    }

    /** The value of a {@code with name = value and ...} attribute. */
    sealed interface AttributeValue {
    }

    /** A word, number or quoted string. */
    record Text(String text) implements AttributeValue {
    }

    /** {@code {k: v, k: v}}. */
    record Hash(Map<String, String> entries) implements AttributeValue {
    }

    /** {@code [{...}, {...}]}. */
    record Array(List<Map<String, String>> hashes) implements AttributeValue {
    }

    record Attribute(String name, AttributeValue value) {
    }

    record Connect(HostAddress host) implements Statement07 {
    }

    /** {@code use KS [USER 'PASSWORD']}; user and password are null without credentials. */
    record Use(String keyspace, String user, String password) implements Statement07 {
    }

    /** {@code ttl} is null without {@code with ttl = N}. */
    record Set(Path path, Term value, Integer ttl) implements Statement07 {
    }

    /** {@code as} (a type for the value) and {@code limit} (columns of a row) are null when not given. */
    record Get(Path path, String as, Integer limit) implements Statement07 {
    }

    record Del(Path path) implements Statement07 {
    }

    record Count(Path path) implements Statement07 {
    }

    /**
     * {@code list CF[start:end] limit N}: {@code start} and {@code end} (keys, inclusive) are null when not given,
     * as is {@code limit} (100 rows).
     */
    record ListRows(String columnFamily, Term start, Term end, Integer limit) implements Statement07 {
    }

    record Truncate(String columnFamily) implements Statement07 {
    }

    /** create or update keyspace. */
    record KeyspaceDefinition(boolean create, String name, List<Attribute> attributes) implements Statement07 {
    }

    /** create or update column family. */
    record ColumnFamilyDefinition(boolean create, String name, List<Attribute> attributes) implements Statement07 {
    }

    record DropKeyspace(String name) implements Statement07 {
    }

    record DropColumnFamily(String name) implements Statement07 {
    }

    /** {@code keyspace} null: the keyspace in use. */
    record Describe(String keyspace) implements Statement07 {
    }

    record ShowKeyspaces() implements Statement07 {
    }

    record ShowClusterName() implements Statement07 {
    }

    record ShowApiVersion() implements Statement07 {
    }

    /** {@code assume CF keys|comparator|sub_comparator|validator as TYPE}. */
    record Assume(String columnFamily, String element, String type) implements Statement07 {
    }

    record Help() implements Statement07 {
    }

    record Quit() implements Statement07 {
    }
}
