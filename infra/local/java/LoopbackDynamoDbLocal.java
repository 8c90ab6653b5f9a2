import com.almworks.sqlite4java.SQLiteConnection;
import com.almworks.sqlite4java.SQLiteJob;
import com.almworks.sqlite4java.SQLiteQueue;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.AbstractLocalDynamoDBServerHandler;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;
import software.amazon.dynamodb.services.local.server.LocalDynamoDBRequestHandler;
import software.amazon.dynamodb.services.local.shared.access.LocalDBClient;
import software.amazon.dynamodb.services.local.shared.access.sqlite.SQLiteDBAccess;

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
 * It also indexes DynamoDB Local's stream records by stream (`indexStreamRecordsByStream`).
 *
 * Run with Java's source launcher (`java -cp <DynamoDB Local jars> LoopbackDynamoDbLocal.java ...`).
 */
public class LoopbackDynamoDbLocal {
  /** What precedes the bound port on standard error. */
  static final String PORT_LINE = "LoopbackDynamoDbLocal listening on port ";
  /** The line on standard error, before the port's, once the stream records are indexed. */
  static final String INDEXED_LINE = "LoopbackDynamoDbLocal indexed its stream records";

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
    try {
      indexStreamRecordsByStream(proxy);
      System.err.println(INDEXED_LINE);
    } catch (Exception error) {
      // Another release of DynamoDB Local may hold its database elsewhere: it still works, only slower
      // (the launcher's test names the release that does).
      System.err.println("LoopbackDynamoDbLocal could not index its stream records: " + error);
    }
    proxy.start();
    // The port bound, on a line of its own for the parent to read (dynamodb-local.ts).
    ServerConnector bound = (ServerConnector) server.getConnectors()[0];
    System.err.println(PORT_LINE + bound.getLocalPort());
  }

  /**
   * DynamoDB Local keeps every table's stream records in one SQLite table (`us`) indexed by sequence
   * number alone, and every request that reads a table's description (each put, query and get: its
   * stream's shards) looks up the stream's first record with `SELECT MIN(SequenceNumber) FROM us WHERE
   * StreamID = ?` (`getStreamDescription`): a scan of every record kept so far, deleted tables'
   * included, as records are kept for 24 hours. So each request cost more than the last: JFR showed
   * that statement as nearly all of the SQLite thread's time. Over seven tables of 1,500 puts each, a
   * put cost DynamoDB Local 1.6 ms of CPU on the second table and 3.6 ms on the seventh, a query 1.5
   * then 2.5 ms; with this index 1.0 to 1.5 ms and 0.8 to 1.2 ms, flat. The index makes that lookup, and
   * GetRecords' (a stream and a sequence number on), a seek; it changes no answer. The database
   * (`shared-local-instance`, as `-sharedDb` names it) is opened here rather than on the first
   * request, through DynamoDB Local's own fields; opening it creates the `us` table.
   */
  static void indexStreamRecordsByStream(DynamoDBProxyServer proxy) throws Exception {
    Object serverHandler = field(DynamoDBProxyServer.class, "serverHandler").get(proxy);
    Object requestHandler = field(AbstractLocalDynamoDBServerHandler.class, "primaryHandler").get(serverHandler);
    Method getHandler = LocalDynamoDBRequestHandler.class.getDeclaredMethod("getHandler", String.class);
    getHandler.setAccessible(true);
    Object client = getHandler.invoke(requestHandler, "shared-local-instance");
    Object access = field(LocalDBClient.class, "dbAccess").get(client);
    SQLiteQueue queue = (SQLiteQueue) field(SQLiteDBAccess.class, "queue").get(access);
    queue
        .execute(
            new SQLiteJob<Void>() {
              @Override
              protected Void job(SQLiteConnection connection) throws Throwable {
                connection.exec("CREATE INDEX IF NOT EXISTS us_stream_sequence ON us (StreamID, SequenceNumber);");
                return null;
              }
            })
        .complete();
  }

  static Field field(Class<?> owner, String name) throws NoSuchFieldException {
    Field field = owner.getDeclaredField(name);
    field.setAccessible(true);
    return field;
  }
}
