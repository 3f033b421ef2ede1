package sibyl.client.cli;

import java.util.List;
import sibyl.client.HostAddress;
import sibyl.client.tool.CommandLine;
import sibyl.client.tool.CommandLine.Arguments;
import sibyl.client.tool.CommandLine.Option;

/** The cli's command line. */
record CliOptions(List<HostAddress> hosts, boolean framed, String file, Boolean interactive,
                  String keyspace, String username, String password, int timeoutSeconds, boolean hexPrefix) {

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
                  --0x                   print BytesType names as 0x hex, which reads back as those bytes
                                         (default: bare hex digits, as 0.6's cli printed them)
                  --batch                read statements from stdin without prompts (the default when stdin
                                         is not a terminal); stop at the first error with exit status 1
                  --interactive          prompt and go on after errors even if stdin is not a terminal
                  --help                 this text
            Without -f, statements come from the terminal (with line editing and history) or from stdin.
            Type 'help' at the prompt for the statements.""";

    static final CommandLine COMMAND_LINE = new CommandLine("cli", USAGE, false,
            Option.value("-h", "--host"), Option.value("-p", "--port"), Option.flag("--framed"),
            Option.value("-f", "--file"), Option.value("-k", "--keyspace"), Option.value("-u", "--username"),
            Option.value("-pw", "--password"), Option.value("--timeout"), Option.flag("--batch"),
            Option.flag("--interactive"), Option.flag("--0x"));

    /** The options of a command line {@link #COMMAND_LINE} parsed. */
    static CliOptions of(Arguments args) {
        String keyspace = args.value("--keyspace", null);
        String username = args.value("--username", null);
        String password = args.value("--password", null);
        if ((username == null) != (password == null) || (username != null && keyspace == null)) {
            throw new IllegalArgumentException("login needs all of --keyspace, --username and --password");
        }
        String mode = args.lastOf("--batch", "--interactive");
        Boolean interactive = mode == null ? null : mode.equals("--interactive");
        int port = args.intValue("--port", HostAddress.DEFAULT_PORT);
        String hosts = args.value("--host", null);
        List<HostAddress> hostList = hosts == null ? List.of() : HostAddress.parseList(hosts, port);
        return new CliOptions(hostList, args.has("--framed"), args.value("--file", null), interactive, keyspace,
                username, password, args.nonNegativeInt("--timeout", 30), args.has("--0x"));
    }
}
