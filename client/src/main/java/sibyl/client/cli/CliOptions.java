package sibyl.client.cli;

import java.util.List;
import sibyl.client.HostAddress;
import sibyl.client.tool.CommandLine;
import sibyl.client.tool.CommandLine.Arguments;
import sibyl.client.tool.CommandLine.Option;

/** The cli's command line. */
record CliOptions(List<HostAddress> hosts, boolean framed, String file, Boolean interactive,
                  String keyspace, String username, String password, int timeoutSeconds, boolean hexPrefix,
                  boolean dialect07) {

    static final String USAGE = """
            Usage: cli [options]
              -h, --host HOST[,HOST...]  connect at start (the next host is tried if one refuses)
              -p, --port PORT            Thrift port (default 9160)
                  --dialect D            0.6 (default): the statements of Cassandra 0.6's cli over 0.6's Thrift
                                         calls; 0.7: those of the cli of Cassandra 0.7 to 1.2 (use KS; set
                                         CF['key']['col'] = 'v'; create column family...; each ended by ';')
                                         over the 0.7+ calls (API 20.1.0), always framed
                  --framed               use framed transport (the server's ThriftFramedTransport=true)
              -f, --file FILE            run the statements in FILE, then exit
              -k, --keyspace KS          with -u/-pw: log in to KS after connecting (0.7: use KS, with or
                                         without -u/-pw)
              -u, --username USER
              -pw, --password PASS
                  --timeout SECONDS      how long to wait for a reply (default 30)
                  --0x                   print BytesType names as 0x hex, which reads back as those bytes
                                         (default: bare hex digits, as 0.6's cli printed them)
                  --batch                read statements from stdin without prompts (the default when stdin
                                         is not a terminal); stop at the first error with exit status 1
                  --interactive          prompt and go on after errors even if stdin is not a terminal
                  --help                 this text
            Without -f, statements come from the terminal (with line editing and history) or from stdin.
            Type 'help' (0.7: 'help;') at the prompt for the statements.""";

    static final CommandLine COMMAND_LINE = new CommandLine("cli", USAGE, false,
            Option.value("-h", "--host"), Option.value("-p", "--port"), Option.flag("--framed"),
            Option.value("-f", "--file"), Option.value("-k", "--keyspace"), Option.value("-u", "--username"),
            Option.value("-pw", "--password"), Option.value("--timeout"), Option.flag("--batch"),
            Option.flag("--interactive"), Option.flag("--0x"), Option.value("--dialect"));

    /** The options of a command line {@link #COMMAND_LINE} parsed. */
    static CliOptions of(Arguments args) {
        String keyspace = args.value("--keyspace", null);
        String username = args.value("--username", null);
        String password = args.value("--password", null);
        String dialect = args.value("--dialect", "0.6");
        if (!dialect.equals("0.6") && !dialect.equals("0.7")) {
            throw new IllegalArgumentException("unknown dialect '" + dialect + "'; use 0.6 (Cassandra 0.6's cli) or "
                    + "0.7 (the cli of Cassandra 0.7 to 1.2)");
        }
        boolean dialect07 = dialect.equals("0.7");
        if ((username == null) != (password == null) || (username != null && keyspace == null)) {
            throw new IllegalArgumentException("login needs all of --keyspace, --username and --password");
        }
        if (keyspace != null && username == null && !dialect07) {
            throw new IllegalArgumentException("login needs all of --keyspace, --username and --password");
        }
        String mode = args.lastOf("--batch", "--interactive");
        Boolean interactive = mode == null ? null : mode.equals("--interactive");
        int port = args.intValue("--port", HostAddress.DEFAULT_PORT);
        String hosts = args.value("--host", null);
        List<HostAddress> hostList = hosts == null ? List.of() : HostAddress.parseList(hosts, port);
        return new CliOptions(hostList, args.has("--framed"), args.value("--file", null), interactive, keyspace,
                username, password, args.nonNegativeInt("--timeout", 30), args.has("--0x"), dialect07);
    }
}
