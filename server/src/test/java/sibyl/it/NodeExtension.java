package sibyl.it;

import java.io.IOException;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.apache.cassandra.thrift.Cassandra;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.ClassTemplate;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterClassTemplateInvocationCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeClassTemplateInvocationCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterInfo;
import org.junit.jupiter.params.aggregator.ArgumentsAccessor;
import org.junit.platform.commons.support.AnnotationSupport;
import org.junit.platform.commons.support.HierarchyTraversalMode;
import org.junit.platform.commons.support.ReflectionSupport;
import sibyl.it.TestNode.Backend;

/**
 * A {@link TestNode} for a test class, registered in a static field:
 *
 * <pre>
 * &#64;RegisterExtension
 * static final NodeExtension NODE = NodeExtension.embedded().edit(ConfEdits.simpleAuthenticator());
 * &#64;NodeExtension.Connected(framed = true)
 * static Cassandra.Client c;
 * </pre>
 *
 * The node starts, in a temporary install directory of its own, before the class's {@code @BeforeAll} methods
 * and stops after its {@code @AfterAll} methods, closing every client opened on it. In a
 * {@code @ParameterizedClass} that happens around each invocation instead, and a node built with
 * {@link #onEachBackend()} stores with the invocation's {@link Backend} argument. Tests reach the node through
 * {@link #node()}; each static field annotated {@link Connected} holds a client of it while it runs.
 *
 * <p>The configuration (backend, edit, password mode) is fixed when the field is built; the node of the
 * current run is the extension's only state, as the tests of a class run one after the other.
 */
public final class NodeExtension implements BeforeAllCallback, AfterAllCallback,
        BeforeClassTemplateInvocationCallback, AfterClassTemplateInvocationCallback {

    /** A static {@code Cassandra.Client} field given a client of the class's node while it runs, then null. */
    @Target(ElementType.FIELD)
    @Retention(RetentionPolicy.RUNTIME)
    public @interface Connected {
        boolean framed() default false;
    }

    /** The node's backend; null for the backend argument of the parameterized class's invocation. */
    private final Backend backend;
    private final Set<Backend> skippedOn;
    private final UnaryOperator<String> edit;
    private final String passwordMode;

    private TestNode node;
    private Path installDir;

    private NodeExtension(Backend backend, Set<Backend> skippedOn, UnaryOperator<String> edit, String passwordMode) {
        this.backend = backend;
        this.skippedOn = skippedOn;
        this.edit = edit;
        this.passwordMode = passwordMode;
    }

    /** A node of the shipped configuration on the embedded engine. */
    public static NodeExtension embedded() {
        return new NodeExtension(Backend.EMBEDDED, Set.of(), UnaryOperator.identity(), null);
    }

    /**
     * A node of the shipped configuration on the backend of each invocation of the class, a
     * {@code @ParameterizedClass} with a {@link Backend} argument ({@code @MethodSource("sibyl.it.TestNode#backends")}).
     */
    public static NodeExtension onEachBackend() {
        return new NodeExtension(null, Set.of(), UnaryOperator.identity(), null);
    }

    /** This node with {@code more} applied to its storage-conf.xml after the edits it has ({@link ConfEdits}). */
    public NodeExtension edit(UnaryOperator<String> more) {
        return new NodeExtension(backend, skippedOn, ConfEdits.all(edit, more), passwordMode);
    }

    /** This node with SimpleAuthenticator's password mode (PLAIN or MD5). */
    public NodeExtension passwordMode(String mode) {
        return new NodeExtension(backend, skippedOn, edit, mode);
    }

    /**
     * This node, not started in the invocations of a parameterized class whose {@link Backend} argument is
     * {@code classBackend}; see {@link #isRunning()}.
     */
    public NodeExtension skippedOn(Backend classBackend) {
        Set<Backend> skipped = EnumSet.of(classBackend);
        skipped.addAll(skippedOn);
        return new NodeExtension(backend, Set.copyOf(skipped), edit, passwordMode);
    }

    /** The running node. */
    public TestNode node() {
        if (node == null) throw new IllegalStateException("no node runs: outside the class's tests, or skipped");
        return node;
    }

    /** Whether the node runs: false only between runs of the class and in invocations it is skipped on. */
    public boolean isRunning() {
        return node != null;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        if (!isClassTemplate(context)) start(context, Optional.empty());
    }

    @Override
    public void beforeClassTemplateInvocation(ExtensionContext context) throws Exception {
        start(context, invocationBackend(context));
    }

    @Override
    public void afterClassTemplateInvocation(ExtensionContext context) throws IOException {
        stop(context);
    }

    @Override
    public void afterAll(ExtensionContext context) throws IOException {
        if (!isClassTemplate(context)) stop(context);
    }

    private static boolean isClassTemplate(ExtensionContext context) {
        return AnnotationSupport.isAnnotated(context.getRequiredTestClass(), ClassTemplate.class);
    }

    /** The {@link Backend} among the arguments of the current invocation of a parameterized class, if any. */
    private static Optional<Backend> invocationBackend(ExtensionContext context) {
        ParameterInfo parameters = ParameterInfo.get(context);
        if (parameters == null) return Optional.empty();
        ArgumentsAccessor arguments = parameters.getArguments();
        for (int i = 0; i < arguments.size(); i++) {
            if (arguments.get(i) instanceof Backend b) return Optional.of(b);
        }
        return Optional.empty();
    }

    private void start(ExtensionContext context, Optional<Backend> classBackend) throws Exception {
        if (installDir != null) throw new IllegalStateException("the node of the previous run still runs");
        if (classBackend.isPresent() && skippedOn.contains(classBackend.get())) return;
        Class<?> testClass = context.getRequiredTestClass();
        Backend on = backend != null ? backend : classBackend.orElseThrow(() -> new ExtensionConfigurationException(
                testClass.getName() + ": NodeExtension.onEachBackend() needs a @ParameterizedClass over TestNode.Backend"
                + " that declares the argument (a @Parameter TestNode.Backend field)"));
        List<Field> connected = connectedFields(testClass);
        installDir = Files.createTempDirectory(testClass.getSimpleName() + "-" + on + "-");
        try {
            node = TestNode.start(on, installDir, edit, passwordMode);
            for (Field field : connected) {
                field.set(null, node.client(field.getAnnotation(Connected.class).framed()));
            }
        } catch (Exception | Error e) {
            try {
                stop(context);
            } catch (IOException | RuntimeException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
    }

    /** Clears the {@link Connected} fields, closes the node with its clients and deletes its directory. */
    private void stop(ExtensionContext context) throws IOException {
        if (installDir == null) return;
        try {
            for (Field field : connectedFields(context.getRequiredTestClass())) field.set(null, null);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        } finally {
            if (node != null) node.close();
            node = null;
            Path dir = installDir;
            installDir = null;
            deleteTree(dir);
        }
    }

    /**
     * The class's fields annotated {@link Connected}, made accessible. They belong to the class's one
     * NodeExtension: with two, which node a client is of would be a guess.
     */
    private static List<Field> connectedFields(Class<?> testClass) {
        List<Field> fields = AnnotationSupport.findAnnotatedFields(testClass, Connected.class);
        if (fields.isEmpty()) return fields;
        List<Field> extensions = ReflectionSupport.findFields(testClass,
                f -> Modifier.isStatic(f.getModifiers()) && f.getType() == NodeExtension.class,
                HierarchyTraversalMode.TOP_DOWN);
        if (extensions.size() != 1) {
            throw new ExtensionConfigurationException(testClass.getName() + ": @Connected fields need exactly one"
                    + " static NodeExtension field in the class, not " + extensions.size());
        }
        for (Field field : fields) {
            if (!Modifier.isStatic(field.getModifiers()) || Modifier.isFinal(field.getModifiers())
                    || field.getType() != Cassandra.Client.class) {
                throw new ExtensionConfigurationException(testClass.getName() + "." + field.getName()
                        + ": @Connected needs a static, non-final Cassandra.Client field");
            }
            field.setAccessible(true);
        }
        return fields;
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) Files.delete(p);
        }
    }
}
