/**
 * The storage seam: what the front end asks of whichever store keeps the data.
 *
 * <p>{@link sibyl.service.StorageService} takes and returns the data model's types only
 * ({@code sibyl.db}), never Thrift's, so the handler in {@code sibyl.thrift} stays a thin layer of
 * validation and conversion, and a second Thrift dialect can share everything below it. The
 * embedded engine implements it ({@code sibyl.engine.LocalStorageService}); a backend over
 * another store implements it beside the engine, not on top of it. The node ({@code sibyl.SibylNode})
 * chooses one when it is built.
 *
 * <p>The seam is a handful of operations, each answering with a future and taking a
 * {@link sibyl.service.Consistency}: read a column or a slice of a row, count, scan a range of rows, write a
 * mutation; and the few facts the describe calls need (partitioner, schema, ring tokens, splits). What the front
 * end should expect of a store's answers, for placing calls on threads, is apart:
 * {@link sibyl.service.StorageHints}. Requests are counted once for every backend
 * ({@link sibyl.service.MeteredStorageService}).
 *
 * <p>Also here, because every backend needs them: the schema as the configuration gives it
 * ({@link sibyl.service.ConfiguredSchema}) and as it is served at one moment ({@link sibyl.service.Schema}),
 * its reload from a changed configuration ({@link sibyl.service.ConfigReloader} over a
 * {@link sibyl.service.Reconfigurable} backend), this node's token ({@link sibyl.service.NodeToken}) and
 * request latencies ({@link sibyl.service.LatencyTracker}).
 */
package sibyl.service;
