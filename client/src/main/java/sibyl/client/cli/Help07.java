package sibyl.client.cli;

/** The text of the 0.7+ cli's help statement. */
final class Help07 {

    private Help07() {
    }

    static final String TEXT = """
            Statements of the 0.7+ cli (keywords in any case; each ends with ';' and may span lines):
              connect HOST/PORT;                              connect (closes the previous connection)
              use KS;   use KS USER 'PASSWORD';               the keyspace of the statements that follow
              set CF['key']['col'] = VALUE [with ttl = N];    write a column (timestamp: now, in microseconds)
              set SCF['key']['super']['col'] = VALUE;         write a subcolumn of a super column family
              get CF['key'] [limit N];                        the columns of a row (super columns in a super CF)
              get CF['key']['col'] [as TYPE];                 one column
              get SCF['key']['super'];                        the subcolumns of a super column
              get SCF['key']['super']['col'];                 one subcolumn
              del CF['key'];   del CF['key']['col'];          delete a row, a column (or super column)
              del SCF['key']['super']['col'];                 delete a subcolumn
              count CF['key'];   count SCF['key']['super'];   number of columns
              list CF[[FIRST]:[LAST]] [limit N];              rows of CF, from key FIRST to LAST (100 unless
                                                              limit says)
              truncate CF;                                    remove every row of CF
              create keyspace KS [with ATTR = V and ...];     placement_strategy, strategy_options = {k:v},
              update keyspace KS with ATTR = V and ...;       replication_factor, durable_writes
              create column family CF [with ATTR = V and ...];  comparator, subcomparator, column_type (Super),
              update column family CF with ATTR = V and ...;    key_validation_class, default_validation_class,
                                                              column_metadata = [{column_name: N,
                                                              validation_class: T}, ...], gc_grace, comment,
                                                              default_time_to_live and CfDef's other fields
              drop keyspace KS;   drop column family CF;
              describe KS;   describe keyspace KS;   describe;  a keyspace's definition (describe: the one in use)
              show keyspaces;   show cluster name;   show api version;
              assume CF keys|comparator|sub_comparator|validator as TYPE;  how to read and print CF for now
              help;  ?                                        this text
              quit;  exit;                                    leave
            Keys, names and values are 'quoted' or bare words, converted by the column family's types:
            keys by key_validation_class, names by comparator (subcomparator), values by the column's
            validation_class in column_metadata, else default_validation_class. BytesType is hex digits.
            A function says the type of one literal: utf8('x'), ascii('x'), long(5), int(5), integer(5),
            double(1.5), bytes('cafe'), lexicaluuid('...') or lexicaluuid(), timeuuid('...') or timeuuid()
            (a new time-based UUID), uuid(...). TYPE is one of those names or a class name (UTF8Type...).
            Lines starting with # or -- are comments.""";
}
