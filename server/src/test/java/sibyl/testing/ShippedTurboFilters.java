package sibyl.testing;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.turbo.TurboFilter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.slf4j.LoggerFactory;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The turbo filters a logback configuration file declares (conf/logback.xml: what the shipped
 * server drops before any appender sees it), added to the logging the tests run under while open.
 * Tests otherwise log through logback-test.xml, which filters nothing; with these a test sees
 * what the shipped server would log.
 */
public final class ShippedTurboFilters implements AutoCloseable {
    private final LoggerContext context;
    private final List<TurboFilter> added;

    private ShippedTurboFilters(LoggerContext context, List<TurboFilter> added) {
        this.context = context;
        this.added = added;
    }

    /** Installs every {@code <turboFilter class="...">} of {@code logbackXml}. */
    public static ShippedTurboFilters install(Path logbackXml) throws Exception {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        NodeList declared = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(logbackXml.toFile())
                .getElementsByTagName("turboFilter");
        List<TurboFilter> added = new ArrayList<>();
        for (int i = 0; i < declared.getLength(); i++) {
            String className = ((Element) declared.item(i)).getAttribute("class");
            TurboFilter filter = (TurboFilter) Class.forName(className).getDeclaredConstructor().newInstance();
            filter.setContext(context);
            filter.start();
            context.addTurboFilter(filter);
            added.add(filter);
        }
        return new ShippedTurboFilters(context, added);
    }

    /** How many filters the file declared. */
    public int count() {
        return added.size();
    }

    @Override
    public void close() {
        context.getTurboFilterList().removeAll(added);
        added.forEach(TurboFilter::stop);
    }
}
