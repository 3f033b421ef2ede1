package sibyl.tools;

/**
 * Why a tool could not do its job, in one line a user can act on (the file, the line or row,
 * the problem). The tool prints it after its name and exits 1.
 */
final class ToolError extends Exception {
    private static final long serialVersionUID = 1L;

    ToolError(String message) {
        super(message);
    }

    ToolError(String message, Throwable cause) {
        super(message, cause);
    }
}
