package sibyl.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import sibyl.RepositoryRoot;
import sibyl.config.AppliesTo.Reload;
import sibyl.config.ChildSetting.OnReload;

/**
 * docs/configuration.md §Global elements and §Additions document each global element as
 * {@link NodeSettings} declares it: one row per element and no row for an undeclared one, the
 * default it declares (and whether its use is logged), what a reload does with a change, and
 * "no effect" exactly for the settings that have none; §Reloading without a restart names each
 * element applied live and each that takes a restart. §Column families, §Keyspaces and §Cluster
 * document each setting {@link ColumnFamilySettings}, {@link KeyspaceSettings} and
 * {@link ClusterSettings} declare likewise. So the page cannot drift from the code.
 */
class SettingsDocumentationTest {
    private static final Path PAGE = RepositoryRoot.find().resolve("docs/configuration.md");
    private static final Pattern CODE = Pattern.compile("`([A-Za-z]+)`");
    /** The link to the section on reloading, which explains the elements compared part by part. */
    private static final String RELOADING_LINK = "(#reloading-without-a-restart))";

    /** One documented element: its row's cells, the absent cell cut to this element's part. */
    private record Row(String element, String form, String absent, String onReload, String effect) {
    }

    private static String page;
    private static Map<String, Row> rows;
    private static Map<String, Setting<?>> declared;
    private static Map<String, Row> columnFamilyRows;
    private static Map<String, Row> keyspaceRows;
    private static Map<String, Row> clusterRows;

    @BeforeAll
    static void read() throws IOException {
        page = Files.readString(PAGE);
        rows = new LinkedHashMap<>();
        List<String> twice = new ArrayList<>();
        for (String section : List.of("## Global elements", "## Additions")) {
            for (Row row : rows(section(section), "element")) {
                if (rows.put(row.element(), row) != null) twice.add(row.element());
            }
        }
        assertEquals(List.of(), twice, "elements with more than one row");
        declared = new LinkedHashMap<>();
        for (Setting<?> setting : NodeSettings.ALL) declared.put(setting.element(), setting);
        assertTrue(declared.size() > 40, "declared " + declared.keySet());
        columnFamilyRows = byElement(rows(section("## Column families"), "attribute"));
        keyspaceRows = byElement(rows(section("## Keyspaces"), "child"));
        clusterRows = byElement(rows(section("## Cluster"), "child"));
    }

    private static Map<String, Row> byElement(List<Row> rows) {
        Map<String, Row> byElement = new LinkedHashMap<>();
        for (Row row : rows) byElement.put(row.element(), row);
        return byElement;
    }

    @Test
    void everyDeclaredElementHasARowAndEveryRowIsDeclared() {
        assertEquals(new TreeSet<>(declared.keySet()), new TreeSet<>(rows.keySet()));
    }

    @Test
    void theAbsentColumnGivesTheDeclaredDefault() {
        List<String> wrong = new ArrayList<>();
        for (Setting<?> setting : NodeSettings.ALL) {
            Row row = rows.get(setting.element());
            if (row == null) continue; // reported by the test above
            if (!agrees(setting.absent(), row.absent())) {
                wrong.add(setting.element() + ": declared " + setting.absent() + ", documented '" + row.absent() + "'");
            }
        }
        assertEquals(List.of(), wrong);
    }

    @Test
    void theReloadColumnSaysWhatTheDeclarationDoes() {
        List<String> wrong = new ArrayList<>();
        for (Setting<?> setting : NodeSettings.ALL) {
            Row row = rows.get(setting.element());
            if (row == null) continue;
            Reload reload = setting.appliesTo().reload();
            boolean agrees = switch (reload) {
                case LIVE -> row.onReload().equals("live");
                case RESTART -> row.onReload().equals("restart");
                case NO_EFFECT -> row.onReload().equals("–");
                case BY_PART -> row.onReload().endsWith(RELOADING_LINK);
            };
            if (!agrees) wrong.add(setting.element() + ": declared " + reload + ", documented '" + row.onReload() + "'");
        }
        assertEquals(List.of(), wrong);
    }

    @Test
    void noEffectIsSaidOfExactlyTheSettingsThatHaveNone() {
        List<String> wrong = new ArrayList<>();
        for (Setting<?> setting : NodeSettings.ALL) {
            Row row = rows.get(setting.element());
            if (row == null) continue;
            boolean none = setting.appliesTo() == AppliesTo.NOTHING;
            if (none != row.effect().startsWith("no effect")) {
                wrong.add(setting.element() + ": applies to " + setting.appliesTo() + ", documented '"
                        + row.effect() + "'");
            }
        }
        assertEquals(List.of(), wrong);
    }

    /** The table of what a reload applies live names each live element; the list of refusals each restart-only one. */
    @Test
    void theReloadingSectionNamesEachLiveAndEachRestartOnlyElement() {
        String reloading = section("## Reloading without a restart");
        String liveTable = between(reloading, "What is applied live:", "What is refused");
        Set<String> live = new TreeSet<>();
        for (String line : liveTable.lines().filter(l -> l.startsWith("| ")).toList()) {
            live.addAll(named(line.split(" \\| ")[0]));
        }
        Set<String> restart = named(between(reloading, "- every other global element Sibyl uses:",
                "these take a restart."));
        assertEquals(elements(Reload.LIVE), globalOnly(live), "named in the table of what is applied live");
        assertEquals(elements(Reload.RESTART), globalOnly(restart), "named as taking a restart");
    }

    /** KeysCachedFraction is read as KeysCached, and ColumnSort is refused: rows of their own, declared by neither. */
    @Test
    void everyColumnFamilyAttributeHasARowThatSaysWhatItsDeclarationDoes() {
        assertChildRows(columnFamilyRows, ColumnFamilySettings.ALL,
                Set.of(ColumnFamilySettings.KEYS_CACHED_FRACTION, "ColumnSort"));
    }

    @Test
    void everyKeyspaceChildHasARowThatSaysWhatItsDeclarationDoes() {
        assertChildRows(keyspaceRows, KeyspaceSettings.ALL, Set.of());
    }

    @Test
    void everyClusterChildHasARowThatSaysWhatItsDeclarationDoes() {
        assertChildRows(clusterRows, ClusterSettings.ALL, Set.of());
    }

    /** One row for each declared setting (and each of {@code undeclared}), its absent and reload cells as declared. */
    private static void assertChildRows(Map<String, Row> rows, List<? extends ChildSetting<?, ?>> settings,
                                        Set<String> undeclared) {
        Set<String> expected = settings.stream().map(ChildSetting::name).collect(Collectors.toCollection(TreeSet::new));
        expected.addAll(undeclared);
        assertEquals(expected, new TreeSet<>(rows.keySet()));
        List<String> wrong = new ArrayList<>();
        for (ChildSetting<?, ?> setting : settings) {
            Row row = rows.get(setting.name());
            if (!agrees(setting.absent(), row.absent())) {
                wrong.add(setting.name() + ": declared " + setting.absent() + ", documented '" + row.absent() + "'");
            }
            boolean agrees = switch (setting.onReload()) {
                case KEY -> row.onReload().equals("–");
                case LIVE -> row.onReload().equals("live");
                case REFUSED -> row.onReload().equals("refused");
                case RESTART -> row.onReload().equals("restart");
                case BY_PART -> row.onReload().endsWith(RELOADING_LINK);
            };
            if (!agrees) {
                wrong.add(setting.name() + ": declared " + setting.onReload() + ", documented '" + row.onReload()
                        + "'");
            }
        }
        assertEquals(List.of(), wrong);
    }

    @Test
    void theReloadingSectionNamesEachLiveAndEachRefusedColumnFamilyAttribute() {
        assertNamedInReloading(ColumnFamilySettings.ALL, "- a column family's", OnReload.REFUSED);
    }

    @Test
    void theReloadingSectionNamesEachLiveAndEachRestartOnlyKeyspaceChild() {
        assertNamedInReloading(KeyspaceSettings.ALL, "- a keyspace's", OnReload.RESTART);
    }

    /** Every child of the cluster takes a restart but those compared part by part, which the section names. */
    @Test
    void theReloadingSectionNamesTheClusterChildrenThatDoNotTakeARestart() {
        String reloading = section("## Reloading without a restart");
        Set<String> byPart = named(between(between(reloading, "the `Cluster` element", "these take a restart."),
                "any of its children but", ")"));
        Map<OnReload, Set<String>> declared = new TreeMap<>();
        for (ChildSetting<?, ?> setting : ClusterSettings.ALL) {
            declared.computeIfAbsent(setting.onReload(), r -> new TreeSet<>()).add(setting.name());
        }
        assertEquals(Set.of(OnReload.RESTART, OnReload.BY_PART), declared.keySet());
        assertEquals(declared.get(OnReload.BY_PART), byPart);
    }

    /**
     * Each live setting is named in the table of what is applied live, and the refusals' item that
     * begins with {@code refusedItem} names exactly the settings refused as {@code refused}.
     */
    private static void assertNamedInReloading(List<? extends ChildSetting<?, ?>> settings, String refusedItem,
                                               OnReload refused) {
        String reloading = section("## Reloading without a restart");
        Set<String> live = new TreeSet<>();
        for (String line : between(reloading, "What is applied live:", "What is refused").lines()
                .filter(l -> l.startsWith("| ")).toList()) {
            live.addAll(named(line.split(" \\| ")[0]));
        }
        Set<String> named = named(between(reloading, refusedItem, "\n- "));
        for (ChildSetting<?, ?> setting : settings) {
            if (setting.onReload() == OnReload.LIVE) assertTrue(live.contains(setting.name()), setting + " in " + live);
        }
        Set<String> declared = new TreeSet<>();
        Set<String> declaredRefused = new TreeSet<>();
        for (ChildSetting<?, ?> setting : settings) {
            declared.add(setting.name());
            if (setting.onReload() == refused) declaredRefused.add(setting.name());
        }
        named.retainAll(declared);
        assertEquals(declaredRefused, named, "named in '" + refusedItem + "'");
    }

    /**
     * A default is documented as its text (with "(logged)" when its use is logged), a required
     * setting as required, and one without a value by what that means, never as a value.
     */
    private static boolean agrees(Setting.Absent absent, String cell) {
        String value = cell.replaceAll("\\s*\\(.*\\)$", "").replace("`", "").trim();
        boolean logged = cell.contains("(logged)");
        if (absent instanceof Setting.Absent.Default given) {
            return value.equals(given.text()) && logged == (given.note() != null);
        }
        if (absent instanceof Setting.Absent.Required) {
            return cell.contains("required") && !logged;
        }
        return !logged && !value.matches("[-+0-9.]+|true|false");
    }

    private static Set<String> elements(Reload reload) {
        return NodeSettings.ALL.stream().filter(s -> s.appliesTo().reload() == reload).map(Setting::element)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /** The names that are global elements, the ones by part (keyspaces, cluster) left out: their parts are not. */
    private static Set<String> globalOnly(Set<String> names) {
        return names.stream().filter(declared::containsKey)
                .filter(n -> declared.get(n).appliesTo().reload() != Reload.BY_PART)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    private static Set<String> named(String text) {
        Set<String> names = new TreeSet<>();
        Matcher m = CODE.matcher(text);
        while (m.find()) names.add(m.group(1));
        return names;
    }

    /** The rows of the first table of {@code section}: element, form, absent, on reload, what it does. */
    private static List<Row> rows(String section, String firstColumn) {
        List<Row> found = new ArrayList<>();
        List<String> lines = section.lines().filter(l -> l.startsWith("| ")).toList();
        assertEquals("| " + firstColumn + " | form | absent | on reload", String.join(" | ",
                List.of(lines.get(0).split(" \\| ")).subList(0, 4)), "the table's columns");
        for (String line : lines.subList(1, lines.size())) {
            String[] cells = line.substring(1, line.length() - 1).split("\\|", -1);
            for (int i = 0; i < cells.length; i++) cells[i] = cells[i].trim();
            assertEquals(5, cells.length, line);
            String[] names = cells[0].split(", ");
            String[] absents = cells[2].split(", ");
            for (int i = 0; i < names.length; i++) {
                String element = names[i].split(" / ")[0];
                String absent = absents.length == names.length ? absents[i] : cells[2];
                found.add(new Row(element, cells[1], absent, cells[3], cells[4]));
            }
        }
        assertTrue(found.size() >= 5, "rows in " + section.lines().findFirst().orElse(""));
        return found;
    }

    /** From {@code heading} to the next heading of its level. */
    private static String section(String heading) {
        int start = page.indexOf("\n" + heading + "\n");
        assertTrue(start >= 0, "docs/configuration.md has no heading " + heading);
        int end = page.indexOf("\n## ", start + heading.length());
        return page.substring(start + 1, end < 0 ? page.length() : end);
    }

    private static String between(String text, String from, String to) {
        int start = text.indexOf(from);
        assertTrue(start >= 0, "no '" + from + "'");
        int end = text.indexOf(to, start);
        assertTrue(end >= 0, "no '" + to + "' after '" + from + "'");
        return text.substring(start, end);
    }
}
