package sibyl.cluster;

import com.datastax.oss.driver.api.core.CqlSessionBuilder;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.context.DriverContext;
import com.datastax.oss.driver.api.core.session.ProgrammaticArguments;
import com.datastax.oss.driver.internal.core.context.DefaultDriverContext;
import com.datastax.oss.driver.internal.core.context.NettyOptions;
import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import java.util.Objects;

/**
 * Builds a session whose connections run on the given event loops ({@link SharedLoopsNettyOptions}); the driver's
 * own context otherwise. Its sessions never shut the loops down.
 */
final class SharedLoopsSessionBuilder extends CqlSessionBuilder {
    private final EventLoopGroup loops;
    private final Class<? extends Channel> channelClass;

    SharedLoopsSessionBuilder(EventLoopGroup loops, Class<? extends Channel> channelClass) {
        this.loops = Objects.requireNonNull(loops, "loops");
        this.channelClass = Objects.requireNonNull(channelClass, "channelClass");
    }

    @Override
    protected DriverContext buildContext(DriverConfigLoader configLoader, ProgrammaticArguments arguments) {
        return new DefaultDriverContext(configLoader, arguments) {
            @Override
            protected NettyOptions buildNettyOptions() {
                return new SharedLoopsNettyOptions(super.buildNettyOptions(), loops, channelClass);
            }
        };
    }
}
