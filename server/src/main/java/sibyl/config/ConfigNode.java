package sibyl.config;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.w3c.dom.Attr;
import org.w3c.dom.Element;
import org.w3c.dom.NamedNodeMap;
import org.w3c.dom.Node;

/**
 * One element of storage-conf.xml with its XPath-like path, for reading settings and naming them
 * in errors and warnings. Follows the 0.6 rule that an element or attribute whose text is empty
 * (after trimming) counts as absent.
 */
final class ConfigNode {
    /** Warnings go to the loader's logger: that is where a user (and a test) looks for them. */
    private static final Logger log = LoggerFactory.getLogger(StorageConfLoader.class);

    private final Path file;
    private final Element element;
    private final String path;
    /** What {@link #value} found per tag, so that a child read twice is warned about once. */
    private final Map<String, Optional<ConfigValue>> valuesByTag = new HashMap<>();

    ConfigNode(Path file, Element element, String path) {
        this.file = file;
        this.element = element;
        this.path = path;
    }

    String path() {
        return path;
    }

    Path file() {
        return file;
    }

    ConfigurationException error(String problem) {
        return new ConfigurationException(file, path, problem);
    }

    /** An error about a child element or attribute ({@code "@Name"}) of this one. */
    ConfigurationException error(String child, String problem) {
        return new ConfigurationException(file, path + "/" + child, problem);
    }

    /** The first child element with this tag, warning when there are more (0.6 used the first). */
    Optional<ConfigNode> child(String tag) {
        List<Element> found = childElements(tag);
        if (found.isEmpty()) {
            return Optional.empty();
        }
        if (found.size() > 1) {
            log.warn("{}: {}/{} appears {} times; only the first is used", file, path, tag, found.size());
        }
        return Optional.of(new ConfigNode(file, found.get(0), path + "/" + tag));
    }

    /** All child elements with this tag, in file order, each path carrying its position. */
    List<ConfigNode> children(String tag) {
        List<ConfigNode> nodes = new ArrayList<>();
        List<Element> found = childElements(tag);
        for (int i = 0; i < found.size(); i++) {
            nodes.add(new ConfigNode(file, found.get(i), path + "/" + tag + "[" + (i + 1) + "]"));
        }
        return nodes;
    }

    /**
     * All child elements with this tag, in file order, each path naming it by its {@code Name}
     * attribute ({@code Keyspace[@Name='Twitter']}), or by position when it has none.
     */
    List<ConfigNode> namedChildren(String tag) {
        List<ConfigNode> nodes = new ArrayList<>();
        List<Element> found = childElements(tag);
        for (int i = 0; i < found.size(); i++) {
            String name = found.get(i).getAttribute("Name").trim();
            String step = name.isEmpty() ? tag + "[" + (i + 1) + "]" : tag + "[@Name='" + name + "']";
            nodes.add(new ConfigNode(file, found.get(i), path + "/" + step));
        }
        return nodes;
    }

    /** This element's own text, if not empty. */
    Optional<ConfigValue> text() {
        String text = element.getTextContent().trim();
        return text.isEmpty() ? Optional.empty() : Optional.of(new ConfigValue(file, path, text));
    }

    /**
     * The text of the child element with this tag, if the element is there and not empty. Its
     * warnings (repeated, or with children or attributes) are logged the first time it is read.
     */
    Optional<ConfigValue> value(String tag) {
        Optional<ConfigValue> known = valuesByTag.get(tag);
        if (known == null) {
            known = readValue(tag);
            valuesByTag.put(tag, known);
        }
        return known;
    }

    private Optional<ConfigValue> readValue(String tag) {
        Optional<ConfigNode> child = child(tag);
        if (child.isEmpty()) {
            return Optional.empty();
        }
        child.get().warnUnknown(Set.of(), Set.of());
        return child.get().text();
    }

    ConfigValue requiredValue(String tag) throws ConfigurationException {
        return value(tag).orElseThrow(() -> error(tag, "required element is missing"));
    }

    /** The non-empty items of a list element such as Seeds/Seed; at least one is required. */
    List<ConfigValue> listValues(String container, String item) throws ConfigurationException {
        List<ConfigValue> values = new ArrayList<>();
        Optional<ConfigNode> list = child(container);
        if (list.isPresent()) {
            list.get().warnUnknown(Set.of(item), Set.of());
            for (ConfigNode node : list.get().children(item)) {
                node.warnUnknown(Set.of(), Set.of());
                node.text().ifPresent(values::add);
            }
        }
        if (values.isEmpty()) {
            throw error(container + "/" + item, "required element is missing; at least one is needed");
        }
        return values;
    }

    /** An attribute's value, if the attribute is there and not empty. */
    Optional<ConfigValue> attribute(String name) {
        if (!element.hasAttribute(name)) {
            return Optional.empty();
        }
        String text = element.getAttribute(name).trim();
        return text.isEmpty() ? Optional.empty() : Optional.of(new ConfigValue(file, path + "/@" + name, text));
    }

    boolean hasAttribute(String name) {
        return element.hasAttribute(name);
    }

    /**
     * Logs one warning for each child element and attribute not in the known sets; the file is
     * still used. Namespace declarations and {@code xsi:} attributes are not warned about.
     */
    void warnUnknown(Set<String> knownChildren, Set<String> knownAttributes) {
        for (Node n = element.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element child && !knownChildren.contains(child.getTagName())) {
                log.warn("{}: unknown element {}/{} is ignored", file, path, child.getTagName());
            }
        }
        NamedNodeMap attributes = element.getAttributes();
        for (int i = 0; i < attributes.getLength(); i++) {
            String name = ((Attr) attributes.item(i)).getName();
            if (!knownAttributes.contains(name) && !name.startsWith("xmlns") && !name.startsWith("xsi:")) {
                log.warn("{}: unknown attribute {}/@{} is ignored", file, path, name);
            }
        }
    }

    private List<Element> childElements(String tag) {
        List<Element> found = new ArrayList<>();
        for (Node n = element.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element child && child.getTagName().equals(tag)) {
                found.add(child);
            }
        }
        return found;
    }
}
