/**
 * The embedded storage engine: memtables, flush, compaction and caches over the SSTables of
 * {@code sibyl.io}, serving the data model of {@code sibyl.db}. {@link sibyl.engine.LocalStorageService}
 * puts it behind the service seam. What it needs of its log it declares ({@link sibyl.engine.RecoverableLog}:
 * a {@link sibyl.db.WriteLog}, a replay at start-up); it knows no log. The node opens the commit log of
 * {@code sibyl.commitlog} and hands it in ({@code sibyl.CommitLogOpener}), when the engine asks, after
 * inspecting its data directories.
 *
 * <h2>Write path</h2>
 * {@link sibyl.engine.Keyspace#apply} resolves a mutation under its row lock and the keyspace's
 * switch lock (read mode), appends it to the {@link sibyl.db.WriteLog}, applies it to each
 * column family's current {@link sibyl.engine.Memtable} (and row cache), then lets the
 * {@link sibyl.engine.StorageEngine} check the memtable limits. A key new to the memtable reaches
 * its ring order later, in a batch sorted on the engine's memtable-sorter thread; until then scans
 * and the flush merge it in from the keys pending, without waiting.
 *
 * <h2>Flush</h2>
 * {@link sibyl.engine.Flusher} switches a full memtable out under the switch lock in write mode at
 * the log's current position; the old memtable stays readable as a {@link sibyl.engine.PendingFlush}
 * until {@link sibyl.engine.MemtableWriter} has written it as an SSTable, which then replaces it in
 * the store's view; only then is the log told it may forget that column family's entries before
 * the position. A store's flushes complete in switch order.
 *
 * <h2>Read path</h2>
 * {@link sibyl.engine.ColumnFamilyStore} reads one immutable view (memtable, pending flushes,
 * SSTables), holding a reference on each SSTable for the read; point reads ask only SSTables
 * whose key range and bloom filter admit the key, and read only the column index blocks a
 * selection needs. Every read of a row (get, get_slice, get_count, multiget, and each row of a
 * range scan) is one {@link sibyl.engine.RowRead}: each source yields the cells the selection
 * needs, merged once a cell at a time, so a range with a count stops reading blocks once the
 * count is met and a read of named columns stops at the first SSTable too old to change it. A store's
 * {@link sibyl.engine.RowCache} holds whole merged rows; its {@link sibyl.io.KeyCache}, shared by
 * its SSTables, holds where in them recently read rows lie, so those reads skip the index.
 *
 * <h2>Compaction and restart</h2>
 * {@link sibyl.engine.Compactor} merges similar-sized SSTables in the background and all of them on
 * request; replaced SSTables are deleted once no reader holds them. At start-up the engine opens
 * every SSTable and the log replays only what is newer than the newest log position each
 * column family's SSTables recorded. Then {@link sibyl.engine.SavedCaches} fills the caches from
 * what the last run saved (and PreloadRowCache from the rows), before the first request.
 */
package sibyl.engine;
