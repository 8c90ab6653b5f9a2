import java.lang.reflect.Field;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

/**
 * DynamoDB Local, bound to loopback and tied to its parent's life.
 *
 * DynamoDB Local takes its usual command-line options but has none for the
 * listening address: its Jetty server binds every interface. This launcher
 * builds the server from the same options, binds its connector to 127.0.0.1
 * before starting it, and exits when its standard input closes, which happens
 * when the Node process that spawned it ends for any reason (a crash or a
 * SIGKILL included), so no orphan keeps the table reachable.
 *
 * Run with Java's source launcher (`java -cp <DynamoDB Local jars> LoopbackDynamoDbLocal.java ...`).
 */
public class LoopbackDynamoDbLocal {
  /** What precedes the bound port on standard error. */
  static final String PORT_LINE = "LoopbackDynamoDbLocal listening on port ";

  public static void main(String[] args) throws Exception {
    // DynamoDB Local refuses `-port 0`: it parses a placeholder, and its connector is given 0 below.
    String[] options = args.clone();
    boolean anyPort = false;
    for (int i = 0; i + 1 < options.length; i++) {
      if (options[i].equals("-port") && options[i + 1].equals("0")) {
        options[i + 1] = "8000";
        anyPort = true;
      }
    }
    DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(options);
    Field serverField = DynamoDBProxyServer.class.getDeclaredField("server");
    serverField.setAccessible(true);
    Server server = (Server) serverField.get(proxy);
    for (Connector connector : server.getConnectors()) {
      ((ServerConnector) connector).setHost("127.0.0.1");
      if (anyPort) ((ServerConnector) connector).setPort(0);
    }
    Thread parentWatch = new Thread(() -> {
      try {
        while (System.in.read() != -1) {
          // Nothing is ever written; the read only waits for the parent's end of the pipe to close.
        }
      } catch (Exception ignored) {
        // A broken pipe means the same as end of input.
      }
      System.exit(0);
    }, "parent-watch");
    parentWatch.setDaemon(true);
    parentWatch.start();
    proxy.start();
    // The port bound, on a line of its own for the parent to read (dynamodb-local.ts).
    ServerConnector bound = (ServerConnector) server.getConnectors()[0];
    System.err.println(PORT_LINE + bound.getLocalPort());
  }
}
