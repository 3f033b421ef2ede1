package sibyl.db;

/**
 * One named entry of a row: a {@link Column} in a standard column family, a {@link SuperColumn}
 * in a super column family. Immutable.
 */
public sealed interface Cell permits Column, SuperColumn {
    /** The name; callers must not modify the array. */
    byte[] name();
}
