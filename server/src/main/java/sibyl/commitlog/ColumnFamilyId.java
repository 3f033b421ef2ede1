package sibyl.commitlog;

/** A column family by keyspace and name: what a segment records as holding unflushed data. */
record ColumnFamilyId(String keyspace, String name) {
    @Override
    public String toString() {
        return keyspace + "." + name;
    }
}
