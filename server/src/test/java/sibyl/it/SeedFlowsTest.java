package sibyl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static sibyl.it.Requests.all;
import static sibyl.it.Requests.b;
import static sibyl.it.Requests.longName;
import static sibyl.it.Requests.namesOf;
import static sibyl.it.Requests.parent;
import static sibyl.it.Requests.path;
import static sibyl.it.Requests.range;
import static sibyl.it.Requests.text;
import static sibyl.it.Requests.timeUuid;
import static sibyl.it.Requests.uuid;
import static sibyl.it.Requests.why;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.Column;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.ColumnPath;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.apache.cassandra.thrift.SuperColumn;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What 0.6 users did first, against the example keyspaces of the shipped storage-conf.xml exactly as
 * shipped (no test schema), through a real socket and the generated client: the Ruby gem's Twitter
 * tutorial, Twissandra's users, tweets, timelines and userlines, and BloggyAppy's tag and comment
 * timelines. Each flow writes what its application wrote and reads back what it showed, in order.
 * Runs against each backend ({@link TestNode.Backend}); with the embedded engine the Twitter flow
 * reads its timeline again after a flush, from SSTables.
 */
@ParameterizedClass
@MethodSource("sibyl.it.TestNode#backends")
class SeedFlowsTest {
    private static final ConsistencyLevel ONE = ConsistencyLevel.ONE;
    private static final String FLUSH_BEAN = "org.apache.cassandra.service:type=StorageService";

    /*
     * Three times (UUID timestamps) in order. A version 1 UUID starts with the low 32 bits of its
     * time, so UUIDs of these times sort otherwise as bytes (B, C, A): a column family comparing
     * them as bytes would put them out of time order.
     */
    private static final long TIME_A = 0x0_FFFF_FF00L;
    private static final long TIME_B = 0x1_0000_0100L;
    private static final long TIME_C = 0x1_8000_0000L;

    @Parameter
    TestNode.Backend backend;
    @RegisterExtension
    static final NodeExtension NODE = NodeExtension.onEachBackend();
    @NodeExtension.Connected
    static Cassandra.Client c;

    // ---- the Twitter tutorial (keyspace Twitter)

    @Test
    void twitterTutorialTimelineReadsNewestStatusFirst() throws Exception {
        String ks = "Twitter";
        long ts = 1_000;
        insertRow(ks, "Users", "7", ts, "screen_name", "adalovelace", "name", "Ada", "location", "London");
        insertRow(ks, "Usernames", "adalovelace", ts, "id", "7");
        insertRow(ks, "Statuses", "101", ts, "text", "Notes on the engine.", "user_id", "7");
        insertRow(ks, "Statuses", "102", ts, "text", "@charles Zzz…", "user_id", "7", "reply_to_id", "99");
        insertRow(ks, "Statuses", "103", ts, "text", "Tea time.", "user_id", "7");
        // The status ids go into the user's timeline under version 1 UUIDs of when they were posted;
        // written out of order, the comparator puts them in time order (not their bytes' order).
        UUID first = timeUuid(TIME_A, 1);
        UUID second = timeUuid(TIME_B, 1);
        UUID third = timeUuid(TIME_C, 1);
        c.insert(ks, "7", timelineColumn(second), b("102"), ts, ONE);
        c.insert(ks, "7", timelineColumn(third), b("103"), ts, ONE);
        c.insert(ks, "7", timelineColumn(first), b("101"), ts, ONE);

        // Users compares with UTF8Type: its columns come back in text order, under their text names.
        assertEquals(List.of("location", "name", "screen_name"),
                namesOf(c.get_slice(ks, "7", parent("Users"), all(), ONE)));
        String userId = text(c.get(ks, "adalovelace", path("Usernames", "id"), ONE).getColumn().bufferForValue());
        assertEquals("7", userId);
        assertEquals("adalovelace",
                text(c.get(ks, userId, path("Users", "screen_name"), ONE).getColumn().bufferForValue()));

        // A node in cluster mode keeps no memtables of its own: nothing to flush.
        boolean[] flushes = backend == TestNode.Backend.EMBEDDED ? new boolean[] {false, true} : new boolean[] {false};
        for (boolean flushed : flushes) {
            if (flushed) NODE.node().invoke(FLUSH_BEAN, "forceTableFlush", ks, new String[0]);
            List<ColumnOrSuperColumn> timeline = c.get_slice(ks, userId, parent("UserRelationships", "user_timeline"),
                    range(b(""), b(""), true, 100), ONE);
            assertEquals(List.of(third, second, first), uuidNamesOf(timeline), "flushed=" + flushed);
            List<String> ids = valuesOf(timeline);
            assertEquals(List.of("103", "102", "101"), ids, "flushed=" + flushed);
            List<String> texts = new ArrayList<>();
            for (String id : ids) {
                texts.add(text(c.get(ks, id, path("Statuses", "text"), ONE).getColumn().bufferForValue()));
            }
            assertEquals(List.of("Tea time.", "@charles Zzz…", "Notes on the engine."), texts, "flushed=" + flushed);
            // The newest two only, as a page of the timeline.
            assertEquals(List.of("103", "102"), valuesOf(c.get_slice(ks, userId,
                    parent("UserRelationships", "user_timeline"), range(b(""), b(""), true, 2), ONE)));
        }

        // UTF8Type validates: a column name that is not UTF-8 is refused.
        for (String cf : List.of("Users", "Statuses", "StatusAudits")) {
            assertEquals("invalid UTF8 bytes [97, -1]", why(() -> c.insert(ks, "7",
                    new ColumnPath(cf).setColumn(new byte[] {'a', (byte) 0xff}), b("x"), ts, ONE)), cf);
        }
    }

    private static ColumnPath timelineColumn(UUID postedAt) {
        return new ColumnPath("UserRelationships").setSuper_column(b("user_timeline")).setColumn(uuid(postedAt));
    }

    // ---- Twissandra (keyspace Twissandra), as its cass.py of the 0.6 days stored things

    private static final String PUBLIC_USERLINE = "!PUBLIC!";

    @Test
    void twissandraTimelinesAndUserlinesAreNewestFirst() throws Exception {
        String ks = "Twissandra";
        saveUser("1", "alice");
        saveUser("2", "bob");
        saveUser("3", "carol");
        addFriend("1", "2"); // alice follows bob
        addFriend("3", "2"); // carol follows bob
        addFriend("3", "1"); // carol follows alice

        long t = 1_280_000_000_000_000L; // microseconds, the tweets' timestamps
        saveTweet("t1", "2", "bob's first", t + 10);
        saveTweet("t2", "1", "alice here", t + 20);
        saveTweet("t3", "2", "bob again", t + 30);
        saveTweet("t4", "3", "carol says hi", t + 40);

        assertEquals(List.of("2"), namesOf(c.get_slice(ks, "1", parent("Friends"), all(), ONE)));
        assertEquals(List.of("1", "3"), namesOf(c.get_slice(ks, "2", parent("Followers"), all(), ONE)));

        // Timelines: one's own tweets and those of whom one follows; userlines: one's own.
        assertEquals(List.of("t3", "t2", "t1"), line("Timeline", "1", null, 40));
        assertEquals(List.of("t3", "t1"), line("Timeline", "2", null, 40));
        assertEquals(List.of("t4", "t3", "t2", "t1"), line("Timeline", "3", null, 40));
        assertEquals(List.of("t2"), line("Userline", "1", null, 40));
        assertEquals(List.of("t3", "t1"), line("Userline", "2", null, 40));
        assertEquals(List.of("t4", "t3", "t2", "t1"), line("Userline", PUBLIC_USERLINE, null, 40));
        // The next page starts at the last timestamp shown.
        assertEquals(List.of("t4", "t3"), line("Timeline", "3", null, 2));
        assertEquals(List.of("t3", "t2", "t1"), line("Timeline", "3", t + 30, 3));
        // The timeline's columns are the timestamps, as LongType numbers.
        List<ColumnOrSuperColumn> raw = c.get_slice(ks, "3", parent("Timeline"), range(b(""), b(""), true, 40), ONE);
        List<Long> stamps = new ArrayList<>();
        for (ColumnOrSuperColumn col : raw) stamps.add(col.getColumn().bufferForName().getLong());
        assertEquals(List.of(t + 40, t + 30, t + 20, t + 10), stamps);

        // The tweets of a page, fetched together, with their authors found by user name.
        Map<String, List<ColumnOrSuperColumn>> tweets = c.multiget_slice(ks, line("Timeline", "1", null, 40),
                parent("Tweet"), all(), ONE);
        List<String> bodies = new ArrayList<>();
        for (String id : line("Timeline", "1", null, 40)) bodies.add(columnValue(tweets.get(id), "body"));
        assertEquals(List.of("bob again", "alice here", "bob's first"), bodies);
        assertEquals(List.of("_ts", "body", "id", "user_id"), namesOf(tweets.get("t1")));
        String bobId = text(c.get(ks, "bob", path("Username", "id"), ONE).getColumn().bufferForValue());
        assertEquals("2", bobId);
        assertEquals("bob", columnValue(c.get_slice(ks, bobId, parent("User"), all(), ONE), "username"));
    }

    private static void saveUser(String id, String username) throws Exception {
        insertRow("Twissandra", "User", id, 1, "id", id, "username", username, "password", "secret-" + username);
        insertRow("Twissandra", "Username", username, 1, "id", id);
    }

    private static void addFriend(String from, String to) throws Exception {
        c.insert("Twissandra", from, path("Friends", to), b("1280000000"), 1, ONE);
        c.insert("Twissandra", to, path("Followers", from), b("1280000000"), 1, ONE);
    }

    private static void saveTweet(String id, String userId, String body, long micros) throws Exception {
        String ks = "Twissandra";
        insertRow(ks, "Tweet", id, micros, "id", id, "user_id", userId, "body", body, "_ts", Long.toString(micros));
        c.insert(ks, userId, new ColumnPath("Userline").setColumn(longName(micros)), b(id), micros, ONE);
        c.insert(ks, PUBLIC_USERLINE, new ColumnPath("Userline").setColumn(longName(micros)), b(id), micros, ONE);
        List<String> readers = new ArrayList<>(List.of(userId));
        readers.addAll(namesOf(c.get_slice(ks, userId, parent("Followers"), all(), ONE)));
        for (String reader : readers) {
            c.insert(ks, reader, new ColumnPath("Timeline").setColumn(longName(micros)), b(id), micros, ONE);
        }
    }

    /** Tweet ids of a timeline or userline, newest first, from {@code start} (a timestamp) if given. */
    private static List<String> line(String cf, String key, Long start, int limit) throws Exception {
        ByteBuffer from = start == null ? b("") : longName(start);
        return valuesOf(c.get_slice("Twissandra", key, parent(cf), range(from, b(""), true, limit), ONE));
    }

    // ---- BloggyAppy (keyspace BloggyAppy), the data model of "WTF is a SuperColumn"

    private static final String NO_TAG = "__notag__";

    @Test
    void bloggyAppyTagTimelinesAndCommentsAreInTimeOrder() throws Exception {
        String ks = "BloggyAppy";
        insertRow(ks, "Authors", "Grace", 1, "numPosts", "3", "email", "grace@example.org", "bio", "admiral");
        post("i-got-a-new-guitar", "Grace", "I got a new guitar", TIME_A, "guitar", "music");
        post("harbour-at-dawn", "Grace", "Harbour at dawn", TIME_B, "photos");
        post("another-cool-guitar", "Grace", "Another cool guitar", TIME_C, "guitar");

        // The latest posts, and the latest of one tag: the newest ten columns of the tag's row.
        assertEquals(List.of("another-cool-guitar", "harbour-at-dawn", "i-got-a-new-guitar"),
                valuesOf(c.get_slice(ks, NO_TAG, parent("TaggedPosts"), range(b(""), b(""), true, 10), ONE)));
        assertEquals(List.of("another-cool-guitar", "i-got-a-new-guitar"),
                valuesOf(c.get_slice(ks, "guitar", parent("TaggedPosts"), range(b(""), b(""), true, 10), ONE)));
        assertEquals(List.of("i-got-a-new-guitar"),
                valuesOf(c.get_slice(ks, "music", parent("TaggedPosts"), range(b(""), b(""), true, 10), ONE)));
        assertEquals("guitar,music", columnValue(
                c.get_slice(ks, "i-got-a-new-guitar", parent("BlogEntries"), all(), ONE), "tags"));

        // Comments: one super column per comment, named by when it was made; subcolumns by bytes.
        String slug = "i-got-a-new-guitar";
        UUID early = timeUuid(TIME_A + 5, 2);
        UUID middle = timeUuid(TIME_B + 5, 2);
        UUID late = timeUuid(TIME_C + 5, 2);
        comment(slug, late, "Linus", "linus@example.org", "Which pickups?");
        comment(slug, early, "Ada", "ada@example.org", "Lovely!");
        comment(slug, middle, "Alan", "alan@example.org", "Play us something.");

        List<ColumnOrSuperColumn> oldestFirst = c.get_slice(ks, slug, parent("Comments"), all(), ONE);
        assertEquals(List.of(early, middle, late), uuidNamesOf(oldestFirst));
        SuperColumn firstComment = oldestFirst.get(0).getSuper_column();
        assertEquals(List.of("comment", "commenter", "email"), subcolumnNames(firstComment));
        assertEquals(List.of("Lovely!", "Ada", "ada@example.org"), subcolumnValues(firstComment));
        List<String> commenters = new ArrayList<>();
        for (ColumnOrSuperColumn sc : c.get_slice(ks, slug, parent("Comments"), range(b(""), b(""), true, 2), ONE)) {
            commenters.add(subcolumnValues(sc.getSuper_column()).get(1));
        }
        assertEquals(List.of("Linus", "Alan"), commenters);
    }

    private static void post(String slug, String author, String title, long postedAt, String... tags)
            throws Exception {
        String ks = "BloggyAppy";
        insertRow(ks, "BlogEntries", slug, 1, "title", title, "body", "…", "author", author,
                "tags", String.join(",", tags), "pubDate", Long.toString(postedAt));
        ColumnPath tagged = new ColumnPath("TaggedPosts").setColumn(uuid(timeUuid(postedAt, 1)));
        for (String tag : tags) c.insert(ks, tag, tagged, b(slug), 1, ONE);
        c.insert(ks, NO_TAG, tagged, b(slug), 1, ONE);
    }

    private static void comment(String slug, UUID madeAt, String commenter, String email, String comment)
            throws Exception {
        ColumnPath sc = new ColumnPath("Comments").setSuper_column(uuid(madeAt));
        c.insert("BloggyAppy", slug, sc.deepCopy().setColumn(b("commenter")), b(commenter), 1, ONE);
        c.insert("BloggyAppy", slug, sc.deepCopy().setColumn(b("email")), b(email), 1, ONE);
        c.insert("BloggyAppy", slug, sc.deepCopy().setColumn(b("comment")), b(comment), 1, ONE);
    }

    // ---- helpers

    /** Inserts columns given as name, value, name, value... into one row. */
    private static void insertRow(String ks, String cf, String key, long ts, String... namesAndValues)
            throws Exception {
        Map<String, String> columns = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) columns.put(namesAndValues[i], namesAndValues[i + 1]);
        for (Map.Entry<String, String> e : columns.entrySet()) {
            c.insert(ks, key, path(cf, e.getKey()), b(e.getValue()), ts, ONE);
        }
    }

    private static List<String> valuesOf(List<ColumnOrSuperColumn> slice) {
        List<String> out = new ArrayList<>();
        for (ColumnOrSuperColumn col : slice) out.add(text(col.getColumn().bufferForValue()));
        return out;
    }

    private static List<UUID> uuidNamesOf(List<ColumnOrSuperColumn> slice) {
        List<UUID> out = new ArrayList<>();
        for (ColumnOrSuperColumn col : slice) {
            ByteBuffer name = col.isSetColumn() ? col.getColumn().bufferForName()
                    : col.getSuper_column().bufferForName();
            out.add(new UUID(name.getLong(name.position()), name.getLong(name.position() + 8)));
        }
        return out;
    }

    private static String columnValue(List<ColumnOrSuperColumn> row, String name) {
        for (ColumnOrSuperColumn col : row) {
            if (text(col.getColumn().bufferForName()).equals(name)) return text(col.getColumn().bufferForValue());
        }
        throw new AssertionError("no column " + name + " in " + namesOf(row));
    }

    private static List<String> subcolumnNames(SuperColumn sc) {
        List<String> out = new ArrayList<>();
        for (Column col : sc.getColumns()) out.add(text(col.bufferForName()));
        return out;
    }

    private static List<String> subcolumnValues(SuperColumn sc) {
        List<String> out = new ArrayList<>();
        for (Column col : sc.getColumns()) out.add(text(col.bufferForValue()));
        return out;
    }
}
