package sibyl.client.soak;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import sibyl.client.ClientConfig;
import sibyl.client.ClientException;
import sibyl.client.SibylClient;

/**
 * The Java half of bin/soak (which starts, kills and restarts the node): {@code write} applies
 * the load and records every acknowledged write; {@code verify} reads them all back.
 */
public final class Soak {
    static final String USAGE = String.join("\n",
            "usage: Soak write  --port P [--host H] --seconds S --acks FILE [--threads T] [--rate WRITES_PER_S] [--seed N]",
            "       Soak verify --port P [--host H] --acks FILE",
            "write: T threads (default 4) write new rows at RATE writes/s in all (default 200) for S seconds,",
            "       read back and scan what they wrote, and append each acknowledged key to FILE; prints",
            "       'soak-writer: acknowledged=N refused=N unknown=N reads=N bad_reads=N connect_failures=N'.",
            "verify: reads back every key in FILE; prints 'soak-verify: acknowledged=N lost=N'.",
            "Exit status 0; 1 when a read was bad, a writer thread died or a write was lost; 2 for bad usage",
            "or no connection.");

    private Soak() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        Map<String, String> options;
        try {
            options = parse(args);
            String mode = options.get("mode");
            ClientConfig config = ClientConfig.builder()
                    .host(options.getOrDefault("host", "127.0.0.1"), Integer.parseInt(required(options, "port")))
                    .connectTimeoutMillis(2_000).readTimeoutMillis(30_000).build();
            Path acks = Path.of(required(options, "acks"));
            if (mode.equals("write")) {
                return write(config, acks, Double.parseDouble(required(options, "seconds")),
                        Integer.parseInt(options.getOrDefault("threads", "4")),
                        Double.parseDouble(options.getOrDefault("rate", "200")),
                        Long.parseLong(options.getOrDefault("seed", Long.toString(System.nanoTime()))), out, err);
            }
            return verify(config, acks, out, err);
        } catch (IllegalArgumentException e) {
            err.println("soak: " + e.getMessage());
            err.println(USAGE);
            return 2;
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
        if (threads <= 0 || rate <= 0 || seconds <= 0) throw new IllegalArgumentException("threads, rate and seconds must be positive");
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

    private static Map<String, String> parse(String[] args) {
        if (args.length == 0 || !(args[0].equals("write") || args[0].equals("verify"))) {
            throw new IllegalArgumentException("first argument must be write or verify");
        }
        Map<String, String> options = new HashMap<>();
        options.put("mode", args[0]);
        for (int i = 1; i < args.length; i += 2) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) throw new IllegalArgumentException("bad option " + args[i]);
            options.put(args[i].substring(2), args[i + 1]);
        }
        return options;
    }

    private static String required(Map<String, String> options, String name) {
        String value = options.get(name);
        if (value == null) throw new IllegalArgumentException("--" + name + " is required");
        return value;
    }
}
