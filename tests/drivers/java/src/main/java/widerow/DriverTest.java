package widerow;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultProtocolVersion;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.config.ProgrammaticDriverConfigLoaderBuilder;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import com.datastax.oss.driver.api.core.servererrors.SyntaxError;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * widerow serve, judged by the Java driver. Target from CQL_HOST / CQL_PORT; CQL_PROTOCOL 4 or 5
 * forces the protocol version. Runs in a keyspace of its own, created first and dropped last.
 */
public final class DriverTest {
  private static int passed = 0;

  private static void check(boolean cond, String what) {
    if (!cond) {
      throw new AssertionError(what);
    }
  }

  private static String env(String name, String dflt) {
    String v = System.getenv(name);
    return v == null || v.isEmpty() ? dflt : v;
  }

  public static void main(String[] args) {
    String host = env("CQL_HOST", "127.0.0.1");
    int port = Integer.parseInt(env("CQL_PORT", "9042"));
    String proto = env("CQL_PROTOCOL", "");
    ProgrammaticDriverConfigLoaderBuilder config =
        DriverConfigLoader.programmaticBuilder()
            .withString(DefaultDriverOption.LOAD_BALANCING_LOCAL_DATACENTER, "datacenter1")
            .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(30))
            .withDuration(DefaultDriverOption.CONNECTION_CONNECT_TIMEOUT, Duration.ofSeconds(10))
            .withDuration(DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, Duration.ofSeconds(10))
            .withDuration(DefaultDriverOption.CONTROL_CONNECTION_TIMEOUT, Duration.ofSeconds(10));
    if (!proto.isEmpty()) {
      config = config.withString(DefaultDriverOption.PROTOCOL_VERSION, "V" + proto);
    }
    String ks = "drv_java_" + ProcessHandle.current().pid() + "_" + (System.nanoTime() % 1_000_000_000L);
    int code = 0;
    try (CqlSession session =
        CqlSession.builder()
            .addContactPoint(new InetSocketAddress(host, port))
            .withConfigLoader(config.build())
            .build()) {
      System.out.println("ok   connect " + host + ":" + port);
      session.execute(
          "CREATE KEYSPACE " + ks
              + " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
      try {
        run(session, ks, proto);
      } catch (Throwable t) {
        System.out.println("FAIL java: " + t);
        t.printStackTrace(System.out);
        code = 1;
      } finally {
        session.execute("DROP KEYSPACE IF EXISTS " + ks);
      }
    } catch (Throwable t) {
      System.out.println("FAIL java: " + t);
      code = 1;
    }
    System.out.println("java: " + passed + " passed, " + (code == 0 ? 0 : 1) + " failed");
    System.exit(code);
  }

  private static void run(CqlSession session, String ks, String proto) {
    // connect: the protocol the session speaks
    var version = session.getContext().getProtocolVersion();
    if (proto.isEmpty()) {
      check(version == DefaultProtocolVersion.V5, "negotiated protocol " + version + ", expected V5");
    } else {
      check(version.getCode() == Integer.parseInt(proto), "protocol " + version + ", forced V" + proto);
    }
    Row local = session.execute("SELECT release_version, data_center FROM system.local").one();
    check(local != null && "datacenter1".equals(local.getString("data_center")), "system.local: " + local);
    check(session.getMetadata().getNodes().size() >= 1, "no nodes in metadata");
    check(session.getMetadata().getTokenMap().isPresent(), "no token map");
    passed++;
    System.out.println("ok   protocol " + version);

    // prepared round trip
    session.execute(
        "CREATE TABLE " + ks + ".kv (k int PRIMARY KEY, name text, big bigint, data blob, id uuid, "
            + "at timestamp, nums list<int>, tags set<text>, attrs map<text, int>, vec vector<float, 3>)");
    PreparedStatement ins =
        session.prepare(
            "INSERT INTO " + ks + ".kv (k, name, big, data, id, at, nums, tags, attrs) "
                + "VALUES (:k, :name, :big, :data, :id, :at, :nums, :tags, :attrs)");
    check(ins.getVariableDefinitions().size() == 9, "bind markers: " + ins.getVariableDefinitions().size());
    check(ins.getPartitionKeyIndices().equals(List.of(0)), "pk indices " + ins.getPartitionKeyIndices());
    UUID id = UUID.randomUUID();
    Instant at = Instant.parse("2024-02-29T23:59:58.123Z");
    BoundStatement b =
        ins.boundStatementBuilder()
            .setInt("k", 7)
            .setString("name", "zoë ✓")
            .setLong("big", -9_000_000_000L)
            .setByteBuffer("data", ByteBuffer.wrap(new byte[] {0, 1, (byte) 0xff}))
            .setUuid("id", id)
            .setInstant("at", at)
            .setList("nums", List.of(3, 1, 2), Integer.class)
            .setSet("tags", Set.of("b", "a"), String.class)
            .setMap("attrs", Map.of("x", 1, "y", -2), String.class, Integer.class)
            .build();
    session.execute(b);
    PreparedStatement sel = session.prepare("SELECT * FROM " + ks + ".kv WHERE k = ?");
    ResultSet rs = session.execute(sel.bind(7));
    Row r = rs.one();
    check(r != null, "row 7 not found");
    check(rs.one() == null, "more than one row");
    check("zoë ✓".equals(r.getString("name")), "name " + r.getString("name"));
    check(r.getLong("big") == -9_000_000_000L, "big " + r.getLong("big"));
    ByteBuffer data = r.getByteBuffer("data");
    check(data.remaining() == 3 && data.get(data.position() + 2) == (byte) 0xff, "data " + data);
    check(id.equals(r.getUuid("id")), "id " + r.getUuid("id"));
    check(at.equals(r.getInstant("at")), "at " + r.getInstant("at"));
    check(List.of(3, 1, 2).equals(r.getList("nums", Integer.class)), "nums " + r.getList("nums", Integer.class));
    check(List.copyOf(r.getSet("tags", String.class)).equals(List.of("a", "b")), "tags " + r.getSet("tags", String.class));
    check(Map.of("x", 1, "y", -2).equals(r.getMap("attrs", String.class, Integer.class)), "attrs");
    check(r.isNull("vec"), "vec should be null");
    check(session.execute(sel.bind(8)).one() == null, "row 8 should not exist");
    passed++;
    System.out.println("ok   prepared round trip");

    // paging: 2,500 rows at page size 1000
    session.execute("CREATE TABLE " + ks + ".paged (p int, c int, PRIMARY KEY (p, c))");
    PreparedStatement pins = session.prepare("INSERT INTO " + ks + ".paged (p, c) VALUES (?, ?)");
    for (int i = 0; i < 2500; i++) {
      session.execute(pins.bind(i % 5, i));
    }
    ResultSet pages = session.execute(SimpleStatement.newInstance("SELECT p, c FROM " + ks + ".paged").setPageSize(1000));
    check(pages.getAvailableWithoutFetching() == 1000, "first page " + pages.getAvailableWithoutFetching());
    check(pages.getExecutionInfo().getPagingState() != null, "no paging state after page 1");
    int n = 0;
    for (Row row : pages) {
      n++;
    }
    check(n == 2500, "paged " + n + " rows, expected 2500");
    passed++;
    System.out.println("ok   paging");

    // errors
    try {
      session.execute("SELECT * FROM " + ks + ".no_such_table");
      check(false, "SELECT from a missing table succeeded");
    } catch (InvalidQueryException e) {
      check(e.getMessage().contains("no_such_table"), "message " + e.getMessage());
    }
    try {
      session.execute("SELEC * FROM system.local");
      check(false, "a syntax error succeeded");
    } catch (SyntaxError e) {
      check(e.getMessage().contains("line 1:0"), "message " + e.getMessage());
    }
    passed++;
    System.out.println("ok   errors");
  }
}
