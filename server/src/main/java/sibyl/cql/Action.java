package sibyl.cql;

import java.util.concurrent.CompletableFuture;
import sibyl.service.CqlAnswer;

/** A statement checked against its table, ready to run with its markers' values. */
interface Action {
    CompletableFuture<CqlAnswer> run(Target target, Bindings values);
}
