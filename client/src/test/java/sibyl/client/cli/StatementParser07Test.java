package sibyl.client.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import sibyl.client.HostAddress;
import sibyl.client.cli.Statement07.Array;
import sibyl.client.cli.Statement07.Attribute;
import sibyl.client.cli.Statement07.Hash;
import sibyl.client.cli.Statement07.Path;
import sibyl.client.cli.Statement07.Term;
import sibyl.client.cli.Statement07.Text;

/** The 0.7+ cli's statements parsed into what they ask for, and the messages of those that cannot be. */
class StatementParser07Test {

    private static Term lit(String text) {
        return new Term(new Literal(text, true), null);
    }

    private static Term bare(String text) {
        return new Term(new Literal(text, false), null);
    }

    private static Path path(String cf, Term... levels) {
        return new Path(cf, List.of(levels));
    }

    @Test
    void dataStatements() {
        assertEquals(new Statement07.Set(path("Users", lit("jsmith"), lit("first")), lit("John"), null),
                StatementParser07.parse("set Users['jsmith']['first'] = 'John'"));
        assertEquals(new Statement07.Set(path("Users", bare("jsmith"), bare("age")), bare("42"), 3600),
                StatementParser07.parse("SET Users[jsmith][age] = 42 WITH TTL = 3600"));
        assertEquals(new Statement07.Set(path("Tweets", lit("k"), new Term(new Literal("5", false), "long"),
                        lit("body")), new Term(new Literal("hi", true), "utf8"), null),
                StatementParser07.parse("set Tweets['k'][long(5)]['body'] = utf8('hi')"));
        assertEquals(new Statement07.Set(path("T", new Term(null, "timeuuid"), lit("c")), lit("v"), null),
                StatementParser07.parse("set T[timeuuid()]['c'] = 'v'"));
        assertEquals(new Statement07.Get(path("Users", lit("jsmith")), null, null),
                StatementParser07.parse("get Users['jsmith']"));
        assertEquals(new Statement07.Get(path("Users", lit("jsmith"), lit("age")), "long", null),
                StatementParser07.parse("get Users['jsmith']['age'] as long"));
        assertEquals(new Statement07.Get(path("Users", lit("jsmith")), null, 5),
                StatementParser07.parse("get Users['jsmith'] limit 5"));
        assertEquals(new Statement07.Del(path("Users", lit("jsmith"))), StatementParser07.parse("del Users['jsmith']"));
        assertEquals(new Statement07.Count(path("Tweets", lit("k"), bare("5"))),
                StatementParser07.parse("count Tweets['k'][5]"));
        assertEquals(new Statement07.ListRows("Users", null, null, null), StatementParser07.parse("list Users"));
        assertEquals(new Statement07.ListRows("Users", null, null, 3), StatementParser07.parse("LIST Users LIMIT 3"));
        assertEquals(new Statement07.ListRows("Users", lit("a"), null, null), StatementParser07.parse("list Users['a':]"));
        assertEquals(new Statement07.ListRows("Users", null, bare("z"), 2),
                StatementParser07.parse("list Users[:z] limit 2"));
        assertEquals(new Statement07.ListRows("Users", lit("a"), new Term(new Literal("z", true), "utf8"), null),
                StatementParser07.parse("list Users['a':utf8('z')]"));
        assertEquals(new Statement07.Truncate("Users"), StatementParser07.parse("truncate Users"));
    }

    @Test
    void sessionAndMetaStatements() {
        assertEquals(new Statement07.Connect(new HostAddress("localhost", 9160)),
                StatementParser07.parse("connect localhost/9160"));
        assertEquals(new Statement07.Use("Demo", null, null), StatementParser07.parse("use Demo"));
        assertEquals(new Statement07.Use("Demo", "jsmith", "secret"),
                StatementParser07.parse("use Demo jsmith 'secret'"));
        assertEquals(new Statement07.Describe("Demo"), StatementParser07.parse("describe Demo"));
        assertEquals(new Statement07.Describe("Demo"), StatementParser07.parse("describe keyspace Demo"));
        assertEquals(new Statement07.Describe(null), StatementParser07.parse("describe"));
        assertEquals(new Statement07.ShowKeyspaces(), StatementParser07.parse("show keyspaces"));
        assertEquals(new Statement07.ShowClusterName(), StatementParser07.parse("show cluster name"));
        assertEquals(new Statement07.ShowApiVersion(), StatementParser07.parse("show api version"));
        assertEquals(new Statement07.Assume("Users", "keys", "utf8"),
                StatementParser07.parse("assume Users keys as utf8"));
        assertEquals(new Statement07.Assume("Users", "validator", "LongType"),
                StatementParser07.parse("ASSUME Users VALIDATOR AS LongType"));
        assertEquals(new Statement07.Help(), StatementParser07.parse("?"));
        assertEquals(new Statement07.Help(), StatementParser07.parse("help set"));
        assertEquals(new Statement07.Quit(), StatementParser07.parse("exit"));
        assertEquals(new Statement07.DropKeyspace("Demo"), StatementParser07.parse("drop keyspace Demo"));
        assertEquals(new Statement07.DropColumnFamily("Users"), StatementParser07.parse("drop column family Users"));
        assertNull(StatementParser07.parse("  -- a comment\n"));
    }

    @Test
    void schemaStatements() {
        assertEquals(new Statement07.KeyspaceDefinition(true, "Demo", List.of(
                        new Attribute("placement_strategy", new Text("org.apache.cassandra.locator.SimpleStrategy")),
                        new Attribute("strategy_options", new Hash(Map.of("replication_factor", "1"))))),
                StatementParser07.parse("create keyspace Demo with placement_strategy = "
                        + "'org.apache.cassandra.locator.SimpleStrategy'\n and strategy_options = {replication_factor:1}"));
        assertEquals(new Statement07.KeyspaceDefinition(false, "Demo", List.of(
                        new Attribute("strategy_options", new Array(List.of(Map.of("replication_factor", "2")))))),
                StatementParser07.parse("update keyspace Demo with strategy_options = [{replication_factor:2}]"));
        assertEquals(new Statement07.ColumnFamilyDefinition(true, "Users", List.of(
                        new Attribute("comparator", new Text("UTF8Type")),
                        new Attribute("read_repair_chance", new Text("0.1")),
                        new Attribute("key_validation_class", new Text("CompositeType(UTF8Type,LongType)")),
                        new Attribute("column_metadata", new Array(List.of(
                                Map.of("column_name", "age", "validation_class", "LongType"),
                                Map.of("column_name", "name", "validation_class", "UTF8Type")))))),
                StatementParser07.parse("create column family Users with comparator = UTF8Type and "
                        + "read_repair_chance = 0.1 and key_validation_class = CompositeType(UTF8Type, LongType) "
                        + "and column_metadata = [{column_name: age, validation_class: LongType}\n"
                        + "{column_name: 'name', validation_class: UTF8Type}]"));
        assertEquals(new Statement07.ColumnFamilyDefinition(true, "Plain", List.of()),
                StatementParser07.parse("create column family Plain"));
    }

    @Test
    void statementsEndWithASemicolonOutsideQuotesAndMaySpanLines() {
        assertFalse(StatementParser07.isComplete("set Users['k']['c'] = 'v'\n"));
        assertFalse(StatementParser07.isComplete("set Users['k']['c'] = 'a;\n"));
        assertTrue(StatementParser07.isComplete("set Users['k']['c'] = 'a;b';\n"));
        assertTrue(StatementParser07.isComplete("create column family Users\n  with comparator = UTF8Type;\n"));
        assertTrue(StatementParser07.isComplete("quit\n"));
        assertTrue(StatementParser07.isComplete("# comment without a semicolon\n"));
        assertEquals(List.of("use Demo", " set U['k']['c'] = 'x;y'", " get U['k']"),
                StatementParser07.split("use Demo; set U['k']['c'] = 'x;y'; get U['k'];\n"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "frobnicate Users|unknown command 'frobnicate'",
        "set Users['k']['c'] 'v'|expected '=' at column 21, found 'v'",
        "set Users['k']['c'] = 'v' with ttl = soon|expected the ttl in seconds (a whole number of at least 0)",
        "set Users['k']['c'] = 'v' with tll = 5|expected 'ttl'",
        "set Users['k']['c'] = 'open|unterminated string",
        "get Users|get needs a row key: Users['key']",
        "get Users['k']['a']['b']['c']|too many [...] levels",
        "get Users[nosuch('k')]|unknown function 'nosuch'; the functions are bytes, utf8",
        "list Users limit 0|expected the limit (a whole number of at least 1)",
        "list Users['a' 'b']|expected ':' at column 16, found 'b'",
        "show tables|cannot show tables",
        "create table Users|cannot create table",
        "drop index Users|cannot drop index",
        "assume Users names as utf8|cannot assume names",
        "create column family Users with comparator|incomplete statement: expected '='",
        "create keyspace Demo with strategy_options = {replication_factor 1}|expected ':'",
        "show keyspaces now|unexpected now at column 16 after the end of the show statement",
        "connect|connect needs a host and port",
    })
    void badStatementsSayWhatIsWrong(String statement, String message) {
        CliError e = assertThrows(CliError.class, () -> StatementParser07.parse(statement));
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }
}
