package sibyl;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sibyl.config.ConfigurationException;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * SIGHUP reloads storage-conf.xml, as {@code bin/nodetool reloadconf} does (docs/configuration.md
 * §Reloading without a restart): the node serves on whatever the outcome, which the reload logs (one
 * INFO line per change, or one ERROR line with the refusal). Java has no public API for signals;
 * {@code sun.misc.Signal} (module jdk.unsupported) is the supported way to catch one, hence the
 * compiler's warning about it.
 *
 * <p>Catching SIGHUP replaces the JVM's own reaction to it, which is to shut down.
 */
final class ReloadSignal {
    private static final Logger log = LoggerFactory.getLogger(ReloadSignal.class);

    private ReloadSignal() {
    }

    /**
     * Installs the handler. A process started with SIGHUP ignored (under nohup, by some supervisors) cannot
     * catch it: the JVM leaves it ignored, and this says so once, pointing at nodetool.
     */
    static void install(SibylNode node) {
        Signal hup = new Signal("HUP");
        SignalHandler previous;
        try {
            previous = Signal.handle(hup, signal -> reload(node));
        } catch (IllegalArgumentException e) {
            log.warn("SIGHUP cannot be caught here ({}); reload the configuration with bin/nodetool reloadconf",
                    e.getMessage());
            return;
        }
        if (previous == SignalHandler.SIG_IGN) {
            log.warn("This process was started with SIGHUP ignored (nohup?), so SIGHUP does not reload the"
                    + " configuration; bin/nodetool reloadconf does");
        }
    }

    /** On the JVM's thread for this signal; the reload logs its outcome itself. */
    private static void reload(SibylNode node) {
        log.info("SIGHUP: reloading {}", node.configuration().configFile());
        try {
            node.reloadConfiguration();
        } catch (ConfigurationException e) {
            // logged by the reload, in one ERROR line
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            log.error("SIGHUP: the reload failed", e);
        }
    }
}
