package sibyl.client.cli;

import java.util.List;
import sibyl.client.HostAddress;

/** The cli's command line. */
record CliOptions(List<HostAddress> hosts, boolean framed, String file, Boolean interactive,
                  String keyspace, String username, String password, int timeoutSeconds, boolean help) {

    static final String USAGE = """
            Usage: cli [options]
              -h, --host HOST[,HOST...]  connect at start (the next host is tried if one refuses)
              -p, --port PORT            Thrift port (default 9160)
                  --framed               use framed transport (the server's ThriftFramedTransport=true)
              -f, --file FILE            run the statements in FILE, then exit
              -k, --keyspace KS          with -u/-pw: log in to KS after connecting
              -u, --username USER
              -pw, --password PASS
                  --timeout SECONDS      how long to wait for a reply (default 30)
                  --batch                read statements from stdin without prompts (the default when stdin
                                         is not a terminal); stop at the first error with exit status 1
                  --interactive          prompt and go on after errors even if stdin is not a terminal
                  --help                 this text
            Without -f, statements come from the terminal (with line editing and history) or from stdin.
            Type 'help' at the prompt for the statements.""";

    static CliOptions parse(String[] args) {
        String hosts = null;
        int port = HostAddress.DEFAULT_PORT;
        boolean framed = false;
        String file = null;
        Boolean interactive = null;
        String keyspace = null;
        String username = null;
        String password = null;
        int timeout = 30;
        boolean help = false;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            String name = arg;
            String inline = null;
            int eq = arg.indexOf('=');
            if (arg.startsWith("--") && eq > 0) {
                name = arg.substring(0, eq);
                inline = arg.substring(eq + 1);
            }
            switch (name) {
                case "-h", "--host" -> hosts = value(args, ++i, name, inline);
                case "-p", "--port" -> port = number(value(args, ++i, name, inline), name);
                case "--framed" -> framed = true;
                case "-f", "--file" -> file = value(args, ++i, name, inline);
                case "-k", "--keyspace" -> keyspace = value(args, ++i, name, inline);
                case "-u", "--username" -> username = value(args, ++i, name, inline);
                case "-pw", "--password" -> password = value(args, ++i, name, inline);
                case "--timeout" -> timeout = number(value(args, ++i, name, inline), name);
                case "--batch" -> interactive = false;
                case "--interactive" -> interactive = true;
                case "--help" -> help = true;
                default -> throw new IllegalArgumentException("unknown option " + arg);
            }
            if (inline != null) {
                i--; // the value was part of the argument, not the next one
            }
        }
        if ((username == null) != (password == null) || (username != null && keyspace == null)) {
            throw new IllegalArgumentException("login needs all of --keyspace, --username and --password");
        }
        if (timeout < 0) {
            throw new IllegalArgumentException("--timeout must not be negative");
        }
        List<HostAddress> hostList = hosts == null ? List.of() : HostAddress.parseList(hosts, port);
        return new CliOptions(hostList, framed, file, interactive, keyspace, username, password, timeout, help);
    }

    private static String value(String[] args, int i, String option, String inline) {
        if (inline != null) {
            return inline;
        }
        if (i >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }

    private static int number(String s, String option) {
        try {
            return Integer.parseInt(s);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " takes a number, not '" + s + "'");
        }
    }
}
