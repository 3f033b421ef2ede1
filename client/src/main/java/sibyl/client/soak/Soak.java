package sibyl.client.soak;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import sibyl.client.ClientConfig;
import sibyl.client.ClientException;
import sibyl.client.SibylClient;
import sibyl.client.tool.CommandLine;
import sibyl.client.tool.CommandLine.Arguments;
import sibyl.client.tool.CommandLine.Option;

/**
 * The Java half of bin/soak (which starts, kills and restarts the node): {@code write} applies
 * the load and records every acknowledged write; {@code verify} reads them all back.
 */
public final class Soak {
    static final String USAGE = String.join("\n",
            "usage: Soak write  --port P [--host H] --seconds S --acks FILE [--threads T] [--rate WRITES_PER_S] [--seed N]",
            "       Soak verify --port P [--host H] --acks FILE",
            "       Soak --help",
            "write: T threads (default 4) write new rows at RATE writes/s in all (default 200) for S seconds,",
            "       read back and scan what they wrote, and append each acknowledged key to FILE; prints",
            "       'soak-writer: acknowledged=N refused=N unknown=N reads=N bad_reads=N connect_failures=N'.",
            "verify: reads back every key in FILE; prints 'soak-verify: acknowledged=N lost=N'.",
            "Exit status 0; 1 when a read was bad, a writer thread died or a write was lost; 2 for bad usage",
            "or no connection.");

    static final CommandLine COMMAND_LINE = new CommandLine("soak", USAGE, true,
            Option.value("--port"), Option.value("--host"), Option.value("--seconds"), Option.value("--acks"),
            Option.value("--threads"), Option.value("--rate"), Option.value("--seed"));

    private Soak() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        try {
            Arguments arguments = COMMAND_LINE.parse(args);
            if (arguments.help()) {
                return COMMAND_LINE.printUsage(out);
            }
            List<String> mode = arguments.operands();
            if (!mode.equals(List.of("write")) && !mode.equals(List.of("verify"))) {
                throw new IllegalArgumentException("give one of write or verify");
            }
            ClientConfig config = ClientConfig.builder()
                    .host(arguments.value("--host", "127.0.0.1"), arguments.intValue("--port"))
                    .connectTimeoutMillis(2_000).readTimeoutMillis(30_000).build();
            Path acks = Path.of(arguments.required("--acks"));
            if (mode.get(0).equals("write")) {
                return write(config, acks, arguments.positiveDouble("--seconds"), arguments.positiveInt("--threads", 4),
                        arguments.positiveDouble("--rate", 200), arguments.longValue("--seed", System.nanoTime()),
                        out, err);
            }
            return verify(config, acks, out, err);
        } catch (IllegalArgumentException e) {
            return COMMAND_LINE.refuse(err, e.getMessage());
        } catch (IOException e) {
            err.println("soak: " + e);
            return 2;
        } catch (ClientException e) {
            err.println("soak: " + e.getMessage());
            return 2;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 2;
        }
    }

    private static int write(ClientConfig config, Path ackFile, double seconds, int threads, double rate, long seed,
                             PrintStream out, PrintStream err) throws IOException, InterruptedException {
        SoakCounts counts = new SoakCounts();
        long deadline = System.nanoTime() + (long) (seconds * TimeUnit.SECONDS.toNanos(1));
        Random seeds = new Random(seed);
        try (AckLog acks = AckLog.create(ackFile)) {
            List<Thread> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                SoakWriter w = new SoakWriter("w" + t, config, deadline, rate / threads, seeds.nextLong(), acks, counts, err);
                Thread thread = new Thread(w, "soak-writer-" + t);
                thread.setUncaughtExceptionHandler((th, e) -> {
                    counts.crashed.incrementAndGet();
                    err.println("soak: " + th.getName() + " died");
                    e.printStackTrace(err);
                });
                thread.start();
                workers.add(thread);
            }
            for (Thread w : workers) w.join();
        }
        out.println("soak-writer: " + counts.summary());
        return counts.badReads.get() == 0 && counts.crashed.get() == 0 ? 0 : 1;
    }

    private static int verify(ClientConfig config, Path ackFile, PrintStream out, PrintStream err) throws IOException {
        List<String> keys = AckLog.read(ackFile);
        long lost;
        try (SibylClient client = SibylClient.connect(config)) {
            lost = new SoakVerifier(client, err).lost(keys);
        }
        out.println("soak-verify: acknowledged=" + keys.size() + " lost=" + lost);
        return lost == 0 ? 0 : 1;
    }
}
