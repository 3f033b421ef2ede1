package sibyl.config;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Set;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.xml.sax.ErrorHandler;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;

/**
 * Reads storage-conf.xml into a {@link StorageConf}. Files written for 0.6 load unchanged, and so
 * do files of 0.7's XML era. Unknown elements and attributes are warned about and skipped;
 * anything Sibyl cannot run with is refused with a {@link ConfigurationException} naming the file,
 * the element and the problem.
 *
 * <p>Each value is read with the parser 0.6 used for it ({@link ConfigValue}), so text 0.6 took
 * loads here. Beyond 0.6's own checks, a setting Sibyl uses is refused where the node could not
 * run with it (a timeout, segment size, memtable limit or sync period of 0 or less, a negative
 * grace period); settings Sibyl has no use for are checked as 0.6 checked them and not kept
 * ({@link UnusedSettings}).
 *
 * <p>Where 0.6 silently used a surprising code default (no ClusterName, a 2 second
 * RpcTimeoutInMillis), the value 0.6 shipped in its sample file is used instead and the log says
 * so. Relative directories are resolved against the install directory.
 *
 * <p>Which elements there are, how each is read and what stands in for an absent one is declared
 * in {@link NodeSettings}; this class reads them in that order.
 */
public final class StorageConfLoader {
    private static final Logger log = LoggerFactory.getLogger(StorageConfLoader.class);

    private StorageConfLoader() {
    }

    /**
     * Loads a storage-conf.xml that lives in {@code <install>/conf/}.
     *
     * @see InstallDirectory#ofConfigFile(Path)
     */
    public static StorageConf load(Path file) throws ConfigurationException {
        return load(file, InstallDirectory.ofConfigFile(file));
    }

    /**
     * @param file the storage-conf.xml to read; error messages name it as given here
     * @param installDir what relative directories in the file are resolved against, normally the
     *     parent of {@code conf/}
     */
    public static StorageConf load(Path file, Path installDir) throws ConfigurationException {
        Objects.requireNonNull(file, "file");
        Path install = installDir.toAbsolutePath().normalize();
        Element root = parse(file);
        if (!root.getTagName().equals("Storage")) {
            throw new ConfigurationException(file, root.getTagName(),
                    "the root element must be <Storage>, not <" + root.getTagName() + ">");
        }
        ConfigNode storage = new ConfigNode(file, root, "Storage");
        storage.warnUnknown(NodeSettings.elements(), Set.of());

        StorageConf.Builder conf = StorageConf.builder().configFile(file).installDirectory(install);
        for (Setting<?> setting : NodeSettings.ALL) {
            read(setting, storage, conf);
        }
        StorageConf loaded = conf.build();
        log.info("Loaded {}: cluster '{}', {} keyspace(s), {}, commit log sync {}", file, loaded.clusterName(),
                loaded.keyspaces().size(), ClassNames.shortName(loaded.partitioner()),
                loaded.commitLogSync().configName());
        return loaded;
    }

    /** Reads one setting and, unless it has no effect, keeps its value. */
    private static <T> void read(Setting<T> setting, ConfigNode storage, StorageConf.Builder conf)
            throws ConfigurationException {
        T value = setting.read(storage, conf);
        if (setting.appliesTo() != AppliesTo.NOTHING) {
            conf.set(setting, value);
        }
    }

    private static Element parse(Path file) throws ConfigurationException {
        if (!Files.exists(file)) {
            throw new ConfigurationException(file, "", "file not found (looked for " + file.toAbsolutePath() + ")");
        }
        if (!Files.isRegularFile(file)) {
            throw new ConfigurationException(file, "", "not a regular file");
        }
        try (InputStream in = Files.newInputStream(file)) {
            Document document = newDocumentBuilder().parse(in, file.toUri().toString());
            return document.getDocumentElement();
        } catch (SAXParseException e) {
            String where = "line " + e.getLineNumber() + ", column " + e.getColumnNumber();
            if (String.valueOf(e.getMessage()).contains("DOCTYPE")) {
                throw new ConfigurationException(file, where,
                        "a DOCTYPE is not allowed: Sibyl reads no DTDs or external entities", e);
            }
            throw new ConfigurationException(file, where, "not well-formed XML: " + e.getMessage(), e);
        } catch (SAXException e) {
            throw new ConfigurationException(file, "", "not well-formed XML: " + e.getMessage(), e);
        } catch (IOException e) {
            throw new ConfigurationException(file, "", "cannot be read: " + e, e);
        }
    }

    /**
     * A parser that reads no DTD and resolves no external entity or XInclude, so a configuration
     * file cannot make the server fetch or disclose other files (XXE).
     */
    private static DocumentBuilder newDocumentBuilder() {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            factory.setFeature("http://xml.org/sax/features/external-general-entities", false);
            factory.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
            factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
            factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
            factory.setXIncludeAware(false);
            factory.setExpandEntityReferences(false);
            factory.setNamespaceAware(false);
            factory.setIgnoringComments(true);
            factory.setCoalescing(true);
            DocumentBuilder builder = factory.newDocumentBuilder();
            builder.setErrorHandler(new ErrorHandler() {
                // The default handler prints to stderr; a failure belongs in the exception instead.
                @Override
                public void warning(SAXParseException e) {
                    log.warn("XML warning at line {}: {}", e.getLineNumber(), e.getMessage());
                }

                @Override
                public void error(SAXParseException e) throws SAXException {
                    throw e;
                }

                @Override
                public void fatalError(SAXParseException e) throws SAXException {
                    throw e;
                }
            });
            return builder;
        } catch (ParserConfigurationException e) {
            throw new IllegalStateException("the JDK XML parser lacks a required safety feature", e);
        }
    }
}
