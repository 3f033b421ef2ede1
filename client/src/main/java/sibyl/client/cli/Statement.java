package sibyl.client.cli;

import sibyl.client.HostAddress;

/** One parsed cli statement. */
sealed interface Statement {

    record Connect(HostAddress host) implements Statement {
    }

    record Set(CellPath path, Literal value) implements Statement {
    }

    record Get(CellPath path) implements Statement {
    }

    record Count(CellPath path) implements Statement {
    }

    record Del(CellPath path) implements Statement {
    }

    record ShowKeyspaces() implements Statement {
    }

    record ShowClusterName() implements Statement {
    }

    record ShowApiVersion() implements Statement {
    }

    record DescribeKeyspace(String keyspace) implements Statement {
    }

    record Help() implements Statement {
    }

    record Quit() implements Statement {
    }
}
