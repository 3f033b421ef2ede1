/**
 * The data model of 0.6, with no storage behind it: columns and super columns
 * ({@link sibyl.db.Column}, {@link sibyl.db.SuperColumn}, both {@link sibyl.db.Cell}s), the
 * version of a row in one column family ({@link sibyl.db.ColumnFamily}) (a row and a super
 * column are both a tombstone, a {@link sibyl.db.Deletion}, over sorted cells: a
 * {@link sibyl.db.CellContainer}), mutations ({@link sibyl.db.RowMutation}, resolved against the
 * schema into {@link sibyl.db.ResolvedMutation}), what a read asks for
 * ({@link sibyl.db.QueryPath}, {@link sibyl.db.ColumnSelection}, {@link sibyl.db.RowRange}), how
 * deep each kind of path may go with 0.6's texts for the wrong shape ({@link sibyl.db.PathShape}, used by
 * the Thrift layer and the stores alike) and what a read sees ({@link sibyl.db.SliceReader}), and the schema ({@link sibyl.db.KSMetaData},
 * {@link sibyl.db.CFMetaData}, comparators in {@code sibyl.db.marshal}).
 *
 * <p>Everything that stores data depends on this package and it depends on none of them: the
 * embedded engine ({@code sibyl.engine}) and the files below it ({@code sibyl.io},
 * {@code sibyl.commitlog}) as much as a backend over another store. Where a write is recorded before
 * it is applied, {@link sibyl.db.WriteLog}, is defined here: the commit log implements it and the
 * engine writes to it, and neither depends on the other (the node joins them, see
 * {@code sibyl.engine.RecoverableLog}).
 */
package sibyl.db;
