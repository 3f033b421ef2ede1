package sibyl.thrift20;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.thrift.protocol.TType;

/**
 * Tells which dialect a call is in from its bytes alone, before anything decodes it: by its method where only one
 * dialect has that method, else by the wire type of the one argument whose type the dialects disagree on (0.6's
 * {@code get} has a keyspace and a key string as fields 1 and 2, 0.7's a binary key and a ColumnPath struct, so field
 * 2 is a string in one and a struct in the other). Where neither tells them apart ({@code describe_version}, or the
 * deciding argument missing), the call is undecided and the connection's dialect answers it; see
 * docs/thrift-api-0.7.md §Both dialects on one port.
 *
 * <p>Reads the message as TBinaryProtocol writes it, strict or not, skipping the arguments before the deciding one
 * without decoding them; bytes it cannot read leave the call undecided, for the processor to refuse as it refuses
 * any malformed call.
 */
public final class DialectOfCall {
    /** Methods 0.6 has and 0.7 dropped. */
    private static final Set<String> ONLY_06 = Set.of("multiget", "get_range_slice", "batch_insert",
            "get_string_property", "get_string_list_property");
    /** Methods 0.7 to 3.11 added. */
    private static final Set<String> ONLY_07 = Set.of("set_keyspace", "multiget_count", "get_paged_slice",
            "get_indexed_slices", "add", "cas", "remove_counter", "atomic_batch_mutate", "truncate", "get_multi_slice",
            "describe_schema_versions", "describe_local_ring", "describe_token_map", "describe_snitch",
            "trace_next_query", "describe_splits_ex", "system_add_column_family", "system_drop_column_family",
            "system_add_keyspace", "system_drop_keyspace", "system_update_keyspace", "system_update_column_family",
            "execute_cql_query", "execute_cql3_query", "prepare_cql_query", "prepare_cql3_query",
            "execute_prepared_cql_query", "execute_prepared_cql3_query", "set_cql_version");
    /** Methods of both with the same arguments (or none): nothing in the call tells the dialects apart. */
    private static final Set<String> ALIKE = Set.of("describe_keyspaces", "describe_cluster_name", "describe_version",
            "describe_ring", "describe_partitioner", "describe_keyspace");
    /** Methods of both whose arguments differ: the field whose wire type tells them apart. */
    private static final Map<String, Decider> BY_ARGUMENT = Map.of(
            "login", new Decider(1, TType.STRING, TType.STRUCT), // 0.6: keyspace; 0.7: AuthenticationRequest
            "get", new Decider(2, TType.STRING, TType.STRUCT), // 0.6: key; 0.7: ColumnPath
            "get_slice", new Decider(2, TType.STRING, TType.STRUCT), // 0.6: key; 0.7: ColumnParent
            "get_count", new Decider(2, TType.STRING, TType.STRUCT),
            "insert", new Decider(2, TType.STRING, TType.STRUCT),
            "remove", new Decider(2, TType.STRING, TType.STRUCT),
            "multiget_slice", new Decider(1, TType.STRING, TType.LIST), // 0.6: keyspace; 0.7: the keys
            "get_range_slices", new Decider(1, TType.STRING, TType.STRUCT), // 0.6: keyspace; 0.7: ColumnParent
            "batch_mutate", new Decider(1, TType.STRING, TType.MAP), // 0.6: keyspace; 0.7: the mutation map
            "describe_splits", new Decider(3, TType.I32, TType.STRING)); // 0.6: keys_per_split; 0.7: end_token

    /** How deep {@link #skip} follows nested structs and containers before giving up on a call. */
    private static final int MAX_DEPTH = 32;

    private record Decider(int field, byte in06, byte in07) {
    }

    /** Which dialects have a method. */
    public enum Presence {
        ONLY_06, ONLY_07, BOTH, NEITHER
    }

    private DialectOfCall() {
    }

    /** Which dialects have {@code method}. */
    public static Presence presence(String method) {
        if (ONLY_06.contains(method)) return Presence.ONLY_06;
        if (ONLY_07.contains(method)) return Presence.ONLY_07;
        if (ALIKE.contains(method) || BY_ARGUMENT.containsKey(method)) return Presence.BOTH;
        return Presence.NEITHER;
    }

    /**
     * Whether {@code holds} is true of every dialect that has {@code method} (false for a method of neither): what
     * a call of that method may count on, whichever dialect it comes in.
     */
    public static boolean everyDialectHaving(String method, Predicate<ThriftDialect> holds) {
        return switch (presence(method)) {
            case ONLY_06 -> holds.test(ThriftDialect.CASSANDRA_06);
            case ONLY_07 -> holds.test(ThriftDialect.CASSANDRA_07);
            case BOTH -> holds.test(ThriftDialect.CASSANDRA_06) && holds.test(ThriftDialect.CASSANDRA_07);
            case NEITHER -> false;
        };
    }

    /**
     * The dialect of the call whose whole message (header and arguments) is {@code buf[offset, offset + length)};
     * null when the call does not say (see the class comment).
     */
    public static ThriftDialect of(byte[] buf, int offset, int length) {
        Reader r = new Reader(buf, offset, offset + length);
        String method = r.methodName();
        if (method == null) return null;
        switch (presence(method)) {
            case ONLY_06:
                return ThriftDialect.CASSANDRA_06;
            case ONLY_07:
                return ThriftDialect.CASSANDRA_07;
            default:
                break;
        }
        Decider decider = BY_ARGUMENT.get(method);
        if (decider == null) return null;
        byte type = r.typeOfField(decider.field);
        if (type == decider.in06) return ThriftDialect.CASSANDRA_06;
        if (type == decider.in07) return ThriftDialect.CASSANDRA_07;
        return null;
    }

    /** A cursor over one message in TBinaryProtocol's form; every read is bounds-checked and fails soft. */
    private static final class Reader {
        private static final int VERSION_MASK = 0xffff0000;
        private static final int VERSION_1 = 0x80010000;
        private final byte[] buf;
        private final int end;
        private int pos;

        Reader(byte[] buf, int pos, int end) {
            this.buf = buf;
            this.pos = pos;
            this.end = Math.min(end, buf.length);
        }

        /** Reads the message header up to the arguments; null (and nothing more to read) when it is malformed. */
        String methodName() {
            if (!has(4)) return null;
            int first = i32();
            String name;
            if (first < 0) {
                if ((first & VERSION_MASK) != VERSION_1) return null;
                name = string();
                if (name == null || !skipBytes(4)) return null; // seqid
            } else {
                pos -= 4;
                name = string();
                if (name == null || !skipBytes(5)) return null; // type, seqid
            }
            return name;
        }

        /** The wire type of argument {@code id}, read from where the header ended; STOP when absent or unreadable. */
        byte typeOfField(int id) {
            while (has(1)) {
                byte type = buf[pos++];
                if (type == TType.STOP || !has(2)) return TType.STOP;
                int fieldId = (short) ((buf[pos] & 0xff) << 8 | buf[pos + 1] & 0xff);
                pos += 2;
                if (fieldId == id) return type;
                if (!skip(type, 0)) return TType.STOP;
            }
            return TType.STOP;
        }

        private boolean skip(byte type, int depth) {
            if (depth > MAX_DEPTH) return false;
            switch (type) {
                case TType.BOOL:
                case TType.BYTE:
                    return skipBytes(1);
                case TType.I16:
                    return skipBytes(2);
                case TType.I32:
                    return skipBytes(4);
                case TType.I64:
                case TType.DOUBLE:
                    return skipBytes(8);
                case TType.STRING: {
                    if (!has(4)) return false;
                    int size = i32();
                    return size >= 0 && skipBytes(size);
                }
                case TType.STRUCT:
                    while (true) {
                        if (!has(1)) return false;
                        byte field = buf[pos++];
                        if (field == TType.STOP) return true;
                        if (!skipBytes(2) || !skip(field, depth + 1)) return false;
                    }
                case TType.MAP: {
                    if (!has(6)) return false;
                    byte key = buf[pos++];
                    byte value = buf[pos++];
                    int size = i32();
                    if (size < 0) return false;
                    for (int i = 0; i < size; i++) {
                        if (!skip(key, depth + 1) || !skip(value, depth + 1)) return false;
                    }
                    return true;
                }
                case TType.SET:
                case TType.LIST: {
                    if (!has(5)) return false;
                    byte element = buf[pos++];
                    int size = i32();
                    if (size < 0) return false;
                    for (int i = 0; i < size; i++) {
                        if (!skip(element, depth + 1)) return false;
                    }
                    return true;
                }
                default:
                    return false;
            }
        }

        private String string() {
            if (!has(4)) return null;
            int size = i32();
            if (size < 0 || !has(size)) return null;
            String s = new String(buf, pos, size, StandardCharsets.UTF_8);
            pos += size;
            return s;
        }

        private int i32() {
            int v = (buf[pos] & 0xff) << 24 | (buf[pos + 1] & 0xff) << 16 | (buf[pos + 2] & 0xff) << 8
                    | buf[pos + 3] & 0xff;
            pos += 4;
            return v;
        }

        private boolean has(int n) {
            return n >= 0 && end - pos >= n;
        }

        private boolean skipBytes(int n) {
            if (!has(n)) return false;
            pos += n;
            return true;
        }
    }
}
