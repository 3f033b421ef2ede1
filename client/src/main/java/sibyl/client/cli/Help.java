package sibyl.client.cli;

/** The text of the help statement. */
final class Help {

    private Help() {
    }

    static final String TEXT = """
            Statements (keywords in any case, one per line, ';' at the end optional):
              connect HOST/PORT                          connect (closes the previous connection)
              show keyspaces                             list the keyspaces
              show cluster name                          the cluster's name
              show api version                           the Thrift API version of the server
              describe keyspace KS                       column families of KS with their types and comparators
              set KS.CF['key']['col'] = VALUE            write a column (timestamp: now, in microseconds)
              set KS.SCF['key']['super']['col'] = VALUE  write a subcolumn of a super column family
              get KS.CF['key']                           all columns of a row (all super columns in a super CF)
              get KS.CF['key']['col']                    one column
              get KS.SCF['key']['super']                 the subcolumns of one super column
              get KS.SCF['key']['super']['col']          one subcolumn
              count KS.CF['key']                         number of columns (super columns in a super CF)
              count KS.SCF['key']['super']               number of subcolumns of a super column
              del KS.CF['key']                           delete the row (in this column family)
              del KS.CF['key']['col']                    delete a column
              del KS.SCF['key']['super']                 delete a super column
              del KS.SCF['key']['super']['col']          delete a subcolumn
              help, ?                                    this text
              quit, exit                                 leave
            Keys, names and values are written 'quoted' (\\' and \\\\ escape) or bare (numbers, UUIDs).
            Names are converted by the column family's comparator:
              UTF8Type, AsciiType    the text
              LongType               a decimal number, sent as 8 bytes big-endian
              LexicalUUIDType,
              TimeUUIDType           xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx (TimeUUIDType: version 1)
              BytesType              0x followed by hex digits is those bytes, other text its UTF-8 bytes
            A bare 0x... literal is raw bytes for any comparator and for values. Other values are sent as
            UTF-8 text. Output shows names the same way, but BytesType names as bare hex digits as 0.6's
            cli printed them (0x hex, which reads back as those bytes, with bin/cli --0x), and values as
            text when they are printable UTF-8, else as 0x hex.
            Lines starting with # or -- are comments.""";
}
