package sibyl.thrift20;

import java.util.function.Supplier;
import sibyl.auth.Authenticator;
import sibyl.service.SchemaEditor;
import sibyl.service.StorageHints;
import sibyl.service.StorageService;
import sibyl.thrift.AuthRefusals;
import sibyl.thrift.NodeDescription;
import sibyl.thrift.SchemaCache;

/**
 * What every connection's handler of the 0.7+ dialect shares: the views of the schema, the node's description
 * (asked for at each call), the authenticator, the store and what it says of its answers, RpcTimeoutInMillis and
 * the count of refusals, what takes the schema calls, and the API version describe_version answers.
 */
record HandlerContext(SchemaCache<SchemaView> views, Supplier<NodeDescription> node, Authenticator authenticator,
                      StorageService storage, StorageHints hints, long rpcTimeoutMillis, AuthRefusals refusals,
                      SchemaEditor schemaEditor, String apiVersion) {
}
