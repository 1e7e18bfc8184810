import com.amazonaws.services.dynamodbv2.local.main.ServerRunner;
import com.amazonaws.services.dynamodbv2.local.server.DynamoDBProxyServer;
import java.lang.reflect.Field;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * DynamoDB Local bound to 127.0.0.1 only (local/dynamodb-local.ts runs it with `java` in
 * source-file mode). The jar has no bind option: its server is a Jetty `Server(port)`, which
 * listens on every interface. This builds the same server from the same arguments as the
 * jar's own main class, sets its connector's host to the loopback address, then starts it.
 * Telemetry is left out (the caller passes -disableTelemetry as well).
 *
 * It also exits when its standard input closes: the Node process that started it holds the
 * other end, so DynamoDB Local never outlives it, even when that process is killed outright.
 */
public class DynamoDBLocalOnLoopback {
  public static void main(String[] args) throws Exception {
    DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(args);
    Field field = DynamoDBProxyServer.class.getDeclaredField("server");
    field.setAccessible(true);
    Server server = (Server) field.get(proxy);
    for (Connector connector : server.getConnectors()) ((ServerConnector) connector).setHost("127.0.0.1");
    proxy.start();
    Thread parentWatch = new Thread(() -> {
      try {
        while (System.in.read() != -1) {
          // Nothing is sent; the read returns -1 when the parent is gone.
        }
      } catch (java.io.IOException closed) {
        // Same: the parent is gone.
      }
      System.exit(0);
    });
    parentWatch.setDaemon(true);
    parentWatch.start();
  }
}
