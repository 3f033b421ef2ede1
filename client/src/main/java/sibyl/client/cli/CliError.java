package sibyl.client.cli;

/** A statement that cannot be carried out, with a message saying what was wrong. */
final class CliError extends RuntimeException {
    CliError(String message) {
        super(message);
    }
}
