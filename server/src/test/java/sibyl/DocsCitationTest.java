package sibyl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The compatibility reference the code cites lives in the repository's docs/ (see docs/README.md), and every
 * citation finds its section: a section sign followed by a heading in a source file names a heading of the
 * docs/ page mentioned last before it, and every link between the pages leads to a page and heading that exist.
 * A heading renamed without its citations fails here, and so does a citation of the references the developers
 * keep outside the repository. (This file spells the section sign as an escape, so that it cites nothing itself.)
 */
class DocsCitationTest {
    private static final Path ROOT = RepositoryRoot.find();
    private static final Pattern PAGE_OR_SECTION = Pattern.compile("docs/([a-z][a-z0-9.-]*\\.md)|\u00a7");
    private static final Pattern HEADING = Pattern.compile("^#{1,6} +(.+?) *$", Pattern.MULTILINE);
    private static final Pattern LINK = Pattern.compile("\\]\\(([a-z0-9.-]*\\.md)?(?:#([a-z0-9-]+))?\\)");
    /** Spelled in pieces, so that this file does not match it. */
    private static final Pattern OUTSIDE = Pattern.compile("/work/" + "shared[\\w/.-]*|\\bshared/[a-z][\\w.-]*"
            + "|\\b(?:thrift-0\\.6|storage-conf|cassandra5|design)\\.md");
    private static final Set<String> SOURCE_ENDINGS = Set.of(".java", ".thrift", ".xml", ".md");

    @Test
    void everySectionCitedInTheSourcesIsAHeadingOfItsPage() throws IOException {
        List<String> broken = new ArrayList<>();
        int citations = 0;
        for (Path file : sources()) {
            String text = Files.readString(file);
            Matcher m = PAGE_OR_SECTION.matcher(text);
            String page = null;
            while (m.find()) {
                if (m.group(1) != null) {
                    page = m.group(1);
                    if (!Files.isRegularFile(ROOT.resolve("docs").resolve(page))) {
                        broken.add(where(file, text, m.start()) + ": no page docs/" + page);
                    }
                    continue;
                }
                citations++;
                String rest = text.substring(m.end());
                if (page == null) {
                    broken.add(where(file, text, m.start()) + ": a section sign that follows no docs/ page");
                } else if (headings(page).stream().noneMatch(h -> startsWithWord(rest, h))) {
                    broken.add(where(file, text, m.start()) + ": no heading of docs/" + page + " begins '"
                            + rest.lines().findFirst().orElse("") + "'");
                }
            }
        }
        assertEquals(List.of(), broken);
        assertTrue(citations >= 15, "the sources cite docs/ sections " + citations + " times; fewer than expected,"
                + " so this test may be reading the wrong files");
    }

    /** The references the developers keep outside the repository, which a person who clones it does not have. */
    @Test
    void noSourceCitesAReferenceOutsideTheRepository() throws IOException {
        List<String> found = new ArrayList<>();
        for (Path file : sources()) {
            String text = Files.readString(file);
            Matcher m = OUTSIDE.matcher(text);
            while (m.find()) {
                found.add(where(file, text, m.start()) + ": " + m.group() + " (cite docs/ instead)");
            }
        }
        assertEquals(List.of(), found);
    }

    @Test
    void theLinksBetweenThePagesLeadToPagesAndHeadings() throws IOException {
        List<String> broken = new ArrayList<>();
        try (Stream<Path> pages = Files.list(ROOT.resolve("docs"))) {
            for (Path file : pages.filter(p -> p.toString().endsWith(".md")).toList()) {
                String text = Files.readString(file);
                Matcher m = LINK.matcher(text);
                while (m.find()) {
                    String page = m.group(1) != null ? m.group(1) : file.getFileName().toString();
                    if (!Files.isRegularFile(ROOT.resolve("docs").resolve(page))) {
                        broken.add(where(file, text, m.start()) + ": no page " + page);
                    } else if (m.group(2) != null && headings(page).stream().map(DocsCitationTest::anchor)
                            .noneMatch(m.group(2)::equals)) {
                        broken.add(where(file, text, m.start()) + ": no heading #" + m.group(2) + " in " + page);
                    }
                }
            }
        }
        assertEquals(List.of(), broken);
    }

    /** The files that may cite the reference: sources, build files and documents, outside build output. */
    private static List<Path> sources() throws IOException {
        try (Stream<Path> files = Files.walk(ROOT)) {
            return files.filter(Files::isRegularFile)
                    .filter(p -> SOURCE_ENDINGS.stream().anyMatch(p.getFileName().toString()::endsWith))
                    .filter(p -> {
                        Path relative = ROOT.relativize(p);
                        return !relative.startsWith("docs") && Stream.of("target", ".git", "var", "node_modules")
                                .noneMatch(skip -> containsSegment(relative, skip));
                    })
                    .toList();
        }
    }

    private static boolean containsSegment(Path relative, String name) {
        for (Path segment : relative) {
            if (segment.toString().equals(name)) return true;
        }
        return false;
    }

    private static List<String> headings(String page) throws IOException {
        String text = Files.readString(ROOT.resolve("docs").resolve(page));
        return HEADING.matcher(text).results().map(r -> r.group(1)).collect(Collectors.toList());
    }

    /** Whether {@code text} begins with {@code heading} as a whole: not followed by a letter or digit. */
    private static boolean startsWithWord(String text, String heading) {
        String flat = text.replaceAll("\\s*\\n\\s*(\\*\\s*|//\\s*)?", " ");
        return flat.startsWith(heading)
                && (flat.length() == heading.length() || !Character.isLetterOrDigit(flat.charAt(heading.length())));
    }

    /** GitHub's anchor of a heading: lower case, spaces to hyphens, other punctuation dropped. */
    static String anchor(String heading) {
        return heading.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9 -]", "").replace(' ', '-');
    }

    private static String where(Path file, String text, int offset) {
        long line = text.substring(0, offset).chars().filter(c -> c == '\n').count() + 1;
        return ROOT.relativize(file) + ":" + line;
    }
}
