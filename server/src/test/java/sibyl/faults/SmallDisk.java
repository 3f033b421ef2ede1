package sibyl.faults;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A tmpfs of a few MB mounted on a test directory: a file system that runs out of space on cue.
 * Mounting takes root; elsewhere {@link #mount} skips the test (a JUnit assumption) and says why.
 * {@link #fillLeaving} takes most of the free space with a filler file, {@link #freeFiller}
 * gives it back. {@link #close} unmounts; the processes using the disk must have stopped first.
 * Mounted with a limit of inodes, it also runs out of them ({@link #fillInodesLeaving}): on tmpfs
 * that is what makes creating a directory or a hard link fail with "No space left on device",
 * as a full disk of blocks does on other file systems.
 */
final class SmallDisk implements AutoCloseable {
    private final Path mountPoint;
    private final Path filler;
    private final Path inodeFillers;

    private SmallDisk(Path mountPoint) {
        this.mountPoint = mountPoint;
        this.filler = mountPoint.resolve("filler");
        this.inodeFillers = mountPoint.resolve("inode-fillers");
    }

    /** Mounts a tmpfs of {@code megabytes} MB on {@code mountPoint} (created), or skips the test. */
    static SmallDisk mount(Path mountPoint, int megabytes) throws IOException, InterruptedException {
        return mount(mountPoint, megabytes, 0);
    }

    /** As {@link #mount(Path, int)}, with room for at most {@code inodes} files and directories (0: tmpfs's default). */
    static SmallDisk mount(Path mountPoint, int megabytes, int inodes) throws IOException, InterruptedException {
        Files.createDirectories(mountPoint);
        Result id = run(List.of("id", "-u"));
        assumeTrue(id.exit() == 0 && id.output().strip().equals("0"),
                "disk-full tests mount a tmpfs and so need root; running as uid " + id.output().strip());
        Result mount = run(List.of("mount", "-t", "tmpfs", "-o", "size=" + megabytes + "m"
                + (inodes > 0 ? ",nr_inodes=" + inodes : ""), "tmpfs", mountPoint.toString()));
        assumeTrue(mount.exit() == 0, "disk-full tests need `mount -t tmpfs` to work; it failed with exit "
                + mount.exit() + ": " + mount.output().strip());
        return new SmallDisk(mountPoint);
    }

    Path path() {
        return mountPoint;
    }

    long usableBytes() throws IOException {
        return store().getUsableSpace();
    }

    long totalBytes() throws IOException {
        return store().getTotalSpace();
    }

    /** Writes a filler file that leaves about {@code freeBytes} free (and synced, so tmpfs has it). */
    void fillLeaving(long freeBytes) throws IOException {
        long toWrite = usableBytes() - freeBytes;
        if (toWrite < 0) throw new IllegalStateException("only " + usableBytes() + " bytes free on " + mountPoint);
        byte[] block = new byte[64 << 10];
        try (OutputStream out = Files.newOutputStream(filler)) {
            for (long left = toWrite; left > 0; left -= block.length) out.write(block, 0, (int) Math.min(left, block.length));
        }
    }

    /**
     * Creates empty files until only {@code free} more files, directories or links can be made.
     *
     * @return the files created
     */
    int fillInodesLeaving(int free) throws IOException {
        Files.createDirectories(inodeFillers);
        List<Path> made = new java.util.ArrayList<>();
        try {
            while (true) made.add(Files.createFile(inodeFillers.resolve("f" + made.size())));
        } catch (IOException full) {
            if (!String.valueOf(full.getMessage()).contains("No space left on device")) throw full;
        }
        for (int i = 0; i < free && !made.isEmpty(); i++) Files.delete(made.remove(made.size() - 1));
        return made.size();
    }

    /** Deletes the files {@link #fillInodesLeaving} made. */
    void freeInodes() throws IOException {
        try (java.util.stream.Stream<Path> files = Files.list(inodeFillers)) {
            for (Path f : files.toList()) Files.delete(f);
        }
    }

    /** Deletes the filler file, giving its space back. */
    void freeFiller() throws IOException {
        Files.delete(filler);
    }

    private FileStore store() throws IOException {
        return Files.getFileStore(mountPoint);
    }

    /** Unmounts; lazily (umount -l) if something still holds a file open, so the test directory can go. */
    @Override
    public void close() throws IOException, InterruptedException {
        Result umount = run(List.of("umount", mountPoint.toString()));
        if (umount.exit() != 0) {
            Result lazy = run(List.of("umount", "-l", mountPoint.toString()));
            if (lazy.exit() != 0) {
                throw new IOException("could not unmount the tmpfs on " + mountPoint + ": " + umount.output()
                        + " / " + lazy.output());
            }
        }
    }

    private record Result(int exit, String output) {
    }

    private static Result run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] output = p.getInputStream().readAllBytes();
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return new Result(-1, String.join(" ", command) + " did not finish within 30 s");
        }
        return new Result(p.exitValue(), new String(output, StandardCharsets.UTF_8));
    }

    @Override
    public String toString() {
        return "tmpfs on " + mountPoint;
    }
}
