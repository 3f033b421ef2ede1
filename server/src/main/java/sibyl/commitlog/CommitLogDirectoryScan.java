package sibyl.commitlog;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import sibyl.fs.ForeignFilesException;

/**
 * What each file in the commit log directory is, told by its name and its first bytes, before
 * anything in the directory is changed. Sibyl takes over the directory of a Cassandra 0.6 node as
 * it stands, and shares segment names with 0.6 ({@code CommitLog-<millis>.log}), so a name alone
 * says nothing about whose a segment is:
 * <ul>
 * <li>Sibyl's own files: segments beginning with its magic "SBCL" (or torn before the magic was
 *     whole), summaries {@code Summary-<id>.cfs} beginning with theirs, the {@code .lock}, the
 *     {@link LegacyReplayManifest}, and the temporary files of summaries and of that list, which
 *     only a crash leaves and which are removed (when they hold what Sibyl writes there);</li>
 * <li>Cassandra 0.6 segments, by their {@link LegacySegmentHeader}: read, never changed. One that 0.6
 *     stopped writing before its header was whole holds no entries and is left alone;</li>
 * <li>files of a segment's name that are empty or hold only zeros: whose they are cannot be told,
 *     and they hold nothing, so they are left alone;</li>
 * <li>a {@code lost+found} directory, as the root of a file system dedicated to the log has;</li>
 * <li>anything else, later Cassandra versions' segments among them: {@link #scan} refuses the whole
 *     directory with one message naming each such file, what it looks like and what to do.</li>
 * </ul>
 */
final class CommitLogDirectoryScan {
    private static final Pattern SEGMENT = Pattern.compile("CommitLog-(\\d+)\\.log");
    private static final Pattern VERSIONED_SEGMENT = Pattern.compile("CommitLog-(\\d+)-(\\d+)\\.log");
    private static final Pattern HEADER_FILE = Pattern.compile("CommitLog-\\d+\\.log\\.header");
    private static final Pattern CDC_INDEX = Pattern.compile("CommitLog-.*_cdc\\.idx");
    private static final String DRAIN = "drain the node that wrote it with its own Cassandra (nodetool drain), so"
            + " that its SSTables hold everything, then move the file out of CommitLogDirectory";
    private static final String MOVE = "move it out of CommitLogDirectory";
    private static final byte[] SIBYL_MAGIC = ByteBuffer.allocate(4).putInt(SegmentHeader.MAGIC).array();
    private static final byte[] SUMMARY_MAGIC = ByteBuffer.allocate(4).putInt(SegmentSummary.MAGIC).array();

    /**
     * What the directory holds.
     *
     * @param sibylSegments     Sibyl's segments, oldest first
     * @param legacySegments    Cassandra 0.6's segments with a whole header, oldest first
     * @param leftovers         Sibyl's own files a crash left behind: temporary files, summaries of segments gone
     * @param nothingToRead     files of a segment's name that hold nothing: empty, only zeros, or a 0.6
     *                          segment whose header was never finished
     * @param highestSegmentId  the highest id in any segment's name, whoever wrote it; 0 if none
     */
    record Result(List<CommitLogReplayer.SegmentFile> sibylSegments, List<LegacySegment> legacySegments,
                  List<Path> leftovers, List<Path> nothingToRead, long highestSegmentId) {
    }

    /** A file Sibyl will not start beside. */
    private record Foreign(Path file, String looksLike, String advice) {
        @Override
        public String toString() {
            return file.getFileName() + " is " + looksLike + ": " + advice;
        }
    }

    private final Path directory;
    private final List<CommitLogReplayer.SegmentFile> sibylSegments = new ArrayList<>();
    private final List<LegacySegment> legacySegments = new ArrayList<>();
    private final List<Path> leftovers = new ArrayList<>();
    private final List<Path> nothingToRead = new ArrayList<>();
    private final List<Path> summaries = new ArrayList<>();
    private final List<Foreign> foreign = new ArrayList<>();
    private long highestId;

    private CommitLogDirectoryScan(Path directory) {
        this.directory = directory;
    }

    /**
     * Looks at every file in {@code directory}, reading 0.6 segments whole (for their checksum),
     * and changes nothing.
     *
     * @throws IOException when the directory cannot be read, or holds a file Sibyl does not
     *                     recognise: then the message names each one and what to do
     */
    static Result scan(Path directory) throws IOException {
        CommitLogDirectoryScan scan = new CommitLogDirectoryScan(directory);
        List<Path> files;
        try (Stream<Path> listing = Files.list(directory)) {
            files = listing.sorted().toList();
        }
        for (Path f : files) scan.classify(f);
        scan.orphanSummaries();
        if (!scan.foreign.isEmpty()) throw scan.refusal();
        scan.sibylSegments.sort(Comparator.comparingLong(CommitLogReplayer.SegmentFile::id));
        scan.legacySegments.sort(Comparator.comparingLong(LegacySegment::id));
        return new Result(List.copyOf(scan.sibylSegments), List.copyOf(scan.legacySegments), List.copyOf(scan.leftovers),
                List.copyOf(scan.nothingToRead), scan.highestId);
    }

    private void classify(Path f) throws IOException {
        String name = f.getFileName().toString();
        if (Files.isDirectory(f, LinkOption.NOFOLLOW_LINKS)) {
            if (!name.equals("lost+found")) foreign.add(new Foreign(f, "a directory", MOVE));
            return;
        }
        if (name.equals(DirectoryLock.FILE_NAME) || name.equals(LegacyReplayManifest.FILE_NAME)) return;
        if (name.equals(LegacyReplayManifest.TEMPORARY_NAME)) {
            ownLeftover(f, LegacyReplayManifest.mayBeOne(start(f)), "a list of replayed 0.6 segments");
            return;
        }
        if (name.startsWith(SegmentSummary.PREFIX) && name.endsWith(SegmentSummary.SUFFIX + ".tmp")) {
            byte[] start = start(f);
            ownLeftover(f, start.length == 0 || startsWith(start, SUMMARY_MAGIC), "a commit log segment summary");
            return;
        }
        if (SegmentSummary.segmentOf(f).isPresent()) {
            byte[] start = start(f);
            if (start.length >= SUMMARY_MAGIC.length && startsWith(start, SUMMARY_MAGIC)) {
                summaries.add(f);
            } else {
                foreign.add(new Foreign(f, "named like a Sibyl segment summary but does not hold one", MOVE));
            }
            return;
        }
        Matcher segment = SEGMENT.matcher(name);
        if (segment.matches()) {
            segment(f, parseId(segment.group(1)));
            return;
        }
        Matcher versioned = VERSIONED_SEGMENT.matcher(name);
        if (versioned.matches()) {
            foreign.add(new Foreign(f, "a commit log segment of " + cassandraOfFormat(versioned.group(1))
                    + " (commit log format version " + versioned.group(1) + ")", DRAIN));
        } else if (HEADER_FILE.matcher(name).matches()) {
            foreign.add(new Foreign(f, "a commit log segment header of Cassandra 0.7 or 0.8", DRAIN));
        } else if (CDC_INDEX.matcher(name).matches()) {
            foreign.add(new Foreign(f, "a change data capture index of Cassandra 3.8 or later", DRAIN));
        } else if (name.startsWith("CommitLog-")) {
            foreign.add(new Foreign(f, "a commit log file of a Cassandra version after 0.6", DRAIN));
        } else {
            foreign.add(new Foreign(f, "not a commit log file", MOVE));
        }
    }

    /** A file named {@code CommitLog-<id>.log}: Sibyl's, 0.6's, or neither, by its first bytes. */
    private void segment(Path f, OptionalLong id) throws IOException {
        if (id.isEmpty()) {
            foreign.add(new Foreign(f, "named like a commit log segment with an id out of range", MOVE));
            return;
        }
        highestId = Math.max(highestId, id.getAsLong());
        long size = Files.size(f);
        byte[] start = start(f);
        if (size == 0) {
            nothingToRead.add(f);
        } else if (startsWith(start, SIBYL_MAGIC)) {
            // Sibyl's own; shorter than the magic only when torn right after it was created.
            sibylSegments.add(new CommitLogReplayer.SegmentFile(id.getAsLong(), f));
        } else {
            switch (LegacySegmentHeader.shape(start, size)) {
                case HEADER -> legacy(f, id.getAsLong());
                case TORN -> nothingToRead.add(f);
                case OTHER -> {
                    if (zerosOnly(f)) {
                        nothingToRead.add(f);
                    } else {
                        foreign.add(new Foreign(f, "a commit log segment that is neither Sibyl's nor Cassandra 0.6's"
                                + " (Cassandra 0.7 to 1.1 name their segments alike), or a damaged one", DRAIN));
                    }
                }
            }
        }
    }

    private void legacy(Path f, long id) throws IOException {
        LegacySegmentHeader header;
        try (FileChannel in = FileChannel.open(f, StandardOpenOption.READ)) {
            ByteBuffer length = ByteBuffer.allocate(Long.BYTES);
            readFully(in, length, 0);
            ByteBuffer bytes = ByteBuffer.allocate((int) length.getLong(0));
            readFully(in, bytes, Long.BYTES);
            header = LegacySegmentHeader.decode(bytes.array());
        } catch (IOException e) {
            foreign.add(new Foreign(f, "a Cassandra 0.6 commit log segment whose header does not read ("
                    + e.getMessage() + ")", "start that node's Cassandra 0.6 once so that it replays the segment,"
                    + " or move the file out of CommitLogDirectory"));
            return;
        }
        legacySegments.add(new LegacySegment(id, f, header, LegacyReplayManifest.fingerprint(f)));
    }

    /**
     * Summaries whose segment is gone: a crash came between deleting the two. (A summary is read
     * only beside a Sibyl segment, so one beside any other file is passed over.)
     */
    private void orphanSummaries() {
        for (Path summary : summaries) {
            if (!Files.exists(SegmentSummary.segmentOf(summary).orElseThrow())) leftovers.add(summary);
        }
    }

    /** A temporary file of Sibyl's own name: removed when its content is Sibyl's (or nothing yet), else refused. */
    private void ownLeftover(Path f, boolean looksOwn, String what) {
        if (looksOwn) leftovers.add(f);
        else foreign.add(new Foreign(f, "named like the temporary file of " + what + " but does not hold one", MOVE));
    }

    private ForeignFilesException refusal() {
        StringBuilder s = new StringBuilder("refusing to start: the commit log directory ").append(directory)
                .append(" holds ").append(foreign.size() == 1 ? "a file" : foreign.size() + " files")
                .append(" Sibyl did not write and cannot take over; no file in it was changed or deleted. ");
        for (int i = 0; i < foreign.size(); i++) {
            if (i > 0) s.append("; ");
            s.append(foreign.get(i));
        }
        return new ForeignFilesException(s.toString());
    }

    /** The Cassandra release of a commit log format version in a segment's name (CommitLogDescriptor's numbering). */
    static String cassandraOfFormat(String version) {
        return switch (version) {
            case "1" -> "Cassandra 1.1";
            case "2" -> "Cassandra 1.2";
            case "3" -> "Cassandra 2.0";
            case "4" -> "Cassandra 2.1";
            case "5" -> "Cassandra 2.2";
            case "6" -> "Cassandra 3.0 to 3.11";
            case "7" -> "Cassandra 4";
            default -> "a Cassandra release after 4";
        };
    }

    private static OptionalLong parseId(String digits) {
        try {
            return OptionalLong.of(Long.parseLong(digits));
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    /** The first bytes of a file, at most {@link LegacySegmentHeader#PROBE_BYTES}. */
    private static byte[] start(Path f) throws IOException {
        try (InputStream in = Files.newInputStream(f)) {
            return in.readNBytes(LegacySegmentHeader.PROBE_BYTES);
        }
    }

    /** Whether {@code bytes} begins with {@code prefix}, or is a non-empty beginning of it. */
    private static boolean startsWith(byte[] bytes, byte[] prefix) {
        if (bytes.length == 0) return false;
        for (int i = 0; i < Math.min(bytes.length, prefix.length); i++) if (bytes[i] != prefix[i]) return false;
        return true;
    }

    private static boolean zerosOnly(Path f) throws IOException {
        byte[] buffer = new byte[1 << 16];
        try (InputStream in = Files.newInputStream(f)) {
            for (int n; (n = in.read(buffer)) > 0; ) {
                for (int i = 0; i < n; i++) if (buffer[i] != 0) return false;
            }
        }
        return true;
    }

    private static void readFully(FileChannel in, ByteBuffer into, long at) throws IOException {
        while (into.hasRemaining()) {
            int n = in.read(into, at + into.position());
            if (n < 0) throw new IOException("the file ends inside the header");
        }
    }
}
