/**
 * The Thrift front end: a Netty server speaking TBinaryProtocol, framed and unframed on one port.
 *
 * <p>Per connection the pipeline is: an idle timer (optional), {@link sibyl.transport.WireModeDetector}, which
 * decides the framing from the first bytes ({@link sibyl.transport.WireMode}) and puts in its place a
 * {@link sibyl.transport.FramedMessageDecoder} or {@link sibyl.transport.UnframedMessageDecoder}, which cuts whole
 * messages with a non-blocking {@link sibyl.transport.MessageScanner}; then {@link sibyl.transport.CallDispatcher},
 * which runs the calls one at a time through {@link sibyl.transport.CallRunner} and writes the replies in order:
 * on the network thread for calls that cannot wait ({@link sibyl.transport.CallPlacement}), started there and
 * answered later from another thread for calls the processor defers ({@link sibyl.transport.DeferringProcessor}),
 * on the worker pool for the rest.
 * {@link sibyl.transport.ThriftServer} builds all this and owns its accepting thread and workers; the network threads
 * are {@link sibyl.transport.NetworkLoops} it is lent (the node shares them with the cluster driver's connections);
 * the rest of the server supplies a {@link sibyl.transport.ProcessorFactory}.
 *
 * <p>Limits ({@link sibyl.transport.TransportLimits}): message size, open connections and idle time per connection,
 * and over all connections the bytes of requests held ({@link sibyl.transport.RequestBudget}). What breaks the
 * per-connection limits closes that connection; a call past the budget, or turned away by a full worker queue, is
 * answered with a TApplicationException "Server overloaded: ..." and its connection stays in step.
 */
package sibyl.transport;
