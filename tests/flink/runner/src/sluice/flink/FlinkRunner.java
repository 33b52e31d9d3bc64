package sluice.flink;

import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.SerializationFeature;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.catalog.Catalog;
import org.apache.flink.table.catalog.CatalogBaseTable;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.conversion.DataStructureConverter;
import org.apache.flink.table.data.conversion.DataStructureConverters;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

/**
 * Runs Flink SQL scripts on Apache Flink 2.2.1 (a streaming TableEnvironment, parallelism 1 unless
 * --parallelism says otherwise, a local MiniCluster in this JVM) and records, per statement, what the
 * differential suite compares with Sluice (tests/flink/run_differential.py, docs/flink.md):
 *
 *   java -cp '.java-deps/flink/lib/*:.java-deps/flink/classes' sluice.flink.FlinkRunner
 *        --out DIR [--parallelism N] [--timeout-s S] [--cluster-per-job] [--write-filesystem-sinks] CASE.sql...
 *
 * For each script it writes DIR/NAME.json (NAME: the script's folder name when the file is case.sql,
 * else the file name without .sql): every statement with its kind, error (the messages of the
 * exception and its causes, and whether it failed while planning or while running), for SELECT and
 * INSERT / statement sets `EXPLAIN CHANGELOG_MODE` of it, the changelog (jsonl lines as
 * `sluice run --format jsonl` prints them: SELECT results under "rows", each 'print', 'blackhole'
 * or 'filesystem' sink's under "sinks" with its connector), wall and CPU milliseconds; and
 * DIR/_batch.json with the JVM's peak RSS. The jobs of a batch run on one MiniCluster started at
 * the beginning (submitted through its REST endpoint on 127.0.0.1), unless --cluster-per-job. ${CASE_DIR} in a script stands
 * for its folder and ${OUT_DIR} for DIR/NAME.files (a place for the files a sink writes: the runner
 * itself writes none there, the differential driver lets Sluice write there). A 'filesystem' sink's
 * rows are also recorded as its format encodes them ("encoded"). One JVM runs the whole batch; every
 * script gets a fresh TableEnvironment. The Kafka SQL connector and Iceberg's Flink runtime (a
 * hadoop catalog) are on the classpath too; a job with an Iceberg sink needs the JVM started with the
 * --add-opens of java.base that Flink's own start scripts pass (Kryo serializes the writer's results),
 * as tests/flink/larkspur_side_by_side.py does.
 */
public final class FlinkRunner {
  private static final Pattern INSERT_TARGET = Pattern.compile(
      "\\bINSERT\\s+(?:INTO|OVERWRITE)\\s+((?:`[^`]+`|[A-Za-z_][A-Za-z0-9_$]*)(?:\\s*\\.\\s*(?:`[^`]+`|[A-Za-z_][A-Za-z0-9_$]*))*)",
      Pattern.CASE_INSENSITIVE);
  // The sinks whose rows are captured instead of written; --write-filesystem-sinks lets 'filesystem'
  // tables write their files (tests/flink/partitioned_sink_check.py compares the trees).
  private static Set<String> CAPTURED = Set.of("print", "blackhole", "filesystem");
  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private final Path out;
  private final int parallelism;
  private final long timeoutSeconds;
  // The REST address of the batch's one MiniCluster (jobs are submitted to it as to a remote
  // cluster, which saves starting a MiniCluster per job), or null to let each job start its own.
  private java.net.URI cluster;
  private final ScheduledExecutorService watchdog = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "runner-watchdog");
    t.setDaemon(true);
    return t;
  });

  private FlinkRunner(Path out, int parallelism, long timeoutSeconds) {
    this.out = out;
    this.parallelism = parallelism;
    this.timeoutSeconds = timeoutSeconds;
  }

  public static void main(String[] args) throws Exception {
    Path out = null;
    int parallelism = 1;
    long timeout = 120;
    boolean shared = true;
    List<Path> scripts = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--out": out = Path.of(args[++i]); break;
        case "--parallelism": parallelism = Integer.parseInt(args[++i]); break;
        case "--timeout-s": timeout = Long.parseLong(args[++i]); break;
        case "--cluster-per-job": shared = false; break;
        case "--write-filesystem-sinks": CAPTURED = Set.of("print", "blackhole"); break;
        default: scripts.add(Path.of(args[i]));
      }
    }
    if (out == null || scripts.isEmpty()) {
      System.err.println("usage: FlinkRunner --out DIR [--parallelism N] [--timeout-s S] [--cluster-per-job] CASE.sql...");
      System.exit(2);
    }
    Files.createDirectories(out);
    FlinkRunner runner = new FlinkRunner(out, parallelism, timeout);
    MiniCluster miniCluster = null;
    if (shared) {
      Configuration conf = new Configuration();
      conf.set(RestOptions.BIND_PORT, "0");
      conf.set(RestOptions.ADDRESS, "127.0.0.1");
      conf.set(RestOptions.BIND_ADDRESS, "127.0.0.1");
      conf.set(TaskManagerOptions.NUM_TASK_SLOTS, Math.max(4, parallelism * 4));
      miniCluster = new MiniCluster(new MiniClusterConfiguration.Builder().setConfiguration(conf)
          .setNumTaskManagers(1).setNumSlotsPerTaskManager(Math.max(4, parallelism * 4)).build());
      miniCluster.start();
      runner.cluster = miniCluster.getRestAddress().get();
    }
    for (Path script : scripts) {
      long start = System.nanoTime();
      String name = runner.runScript(script);
      System.err.printf(Locale.ROOT, "flink-runner: %s %.1f s%n", name, (System.nanoTime() - start) / 1e9);
    }
    Map<String, Object> batch = new LinkedHashMap<>();
    batch.put("cases", scripts.size());
    batch.put("peak_rss_bytes", peakRssBytes());
    JSON.writeValue(out.resolve("_batch.json").toFile(), batch);
    System.exit(0);
  }

  static String caseName(Path script) {
    String file = script.getFileName().toString();
    if (file.equals("case.sql") && script.toAbsolutePath().getParent() != null) {
      return script.toAbsolutePath().getParent().getFileName().toString();
    }
    return file.endsWith(".sql") ? file.substring(0, file.length() - 4) : file;
  }

  private String runScript(Path script) throws IOException {
    String name = caseName(script);
    String dir = script.toAbsolutePath().getParent().toString();
    Path files = out.resolve(name + ".files").toAbsolutePath();
    String text = Files.readString(script, StandardCharsets.UTF_8).replace("${CASE_DIR}", dir)
        .replace("${OUT_DIR}", files.toString());
    Path sinkDir = out.resolve(name + ".sinks");
    Files.createDirectories(sinkDir);
    Configuration conf = new Configuration();
    if (cluster != null) {
      conf.setString("execution.target", "remote");
      conf.setString("rest.address", cluster.getHost());
      conf.setString("rest.port", Integer.toString(cluster.getPort()));
    }
    // A script that sets 'execution.runtime-mode' to 'batch' runs in a batch TableEnvironment (the mode
    // is fixed when the environment is made; the SET itself is applied again when the script reaches it).
    EnvironmentSettings.Builder builder = EnvironmentSettings.newInstance();
    builder = BATCH_MODE.matcher(text).find() ? builder.inBatchMode() : builder.inStreamingMode();
    EnvironmentSettings settings = builder.withConfiguration(conf).build();
    TableEnvironment env = TableEnvironment.create(settings);
    env.getConfig().set("parallelism.default", Integer.toString(parallelism));
    env.getConfig().set("table.exec.resource.default-parallelism", Integer.toString(parallelism));
    List<Map<String, Object>> results = new ArrayList<>();
    List<String> pendingSet = null;
    for (String stmt : ScriptSplitter.split(text)) {
      String head = headWords(stmt);
      if (head.equals("BEGIN STATEMENT SET")) {
        pendingSet = new ArrayList<>();
        continue;
      }
      if (pendingSet != null && !head.equals("END")) {
        pendingSet.add(stmt);
        continue;
      }
      if (pendingSet != null) {
        stmt = "EXECUTE STATEMENT SET BEGIN\n" + String.join(";\n", pendingSet) + ";\nEND";
        head = headWords(stmt);
        pendingSet = null;
      }
      results.add(runStatement(env, stmt, head, sinkDir, results.size()));
    }
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("case", name);
    doc.put("script", script.toAbsolutePath().toString());
    doc.put("parallelism", parallelism);
    doc.put("statements", results);
    JSON.writeValue(out.resolve(name + ".json").toFile(), doc);
    return name;
  }

  /** The statement's first words in upper case, comments skipped. */
  static String headWords(String stmt) {
    String code = stmt.replaceAll("(?s)/\\*.*?\\*/", " ").replaceAll("--[^\\n]*", " ").trim();
    String[] words = code.split("\\s+");
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < Math.min(3, words.length); i++) {
      if (i > 0) sb.append(' ');
      sb.append(words[i].replace(";", "").toUpperCase(Locale.ROOT));
    }
    return sb.toString();
  }

  static String kindOf(String head) {
    if (head.startsWith("SELECT") || head.startsWith("WITH") || head.startsWith("VALUES")
        || head.startsWith("(")) {
      return "query";
    }
    if (head.startsWith("INSERT") || head.startsWith("EXECUTE STATEMENT SET")) return "insert";
    if (head.startsWith("EXPLAIN")) return "explain";
    if (head.startsWith("SET") || head.startsWith("RESET")) return "set";
    return "ddl";
  }

  private Map<String, Object> runStatement(TableEnvironment env, String stmt, String head, Path sinkDir,
      int index) {
    Map<String, Object> r = new LinkedHashMap<>();
    String kind = kindOf(head);
    r.put("sql", stmt);
    r.put("kind", kind);
    if (kind.equals("query") || kind.equals("insert")) {
      runJob(env, stmt, kind, sinkDir, index, r);
      return r;
    }
    try {
      if (kind.equals("set")) {
        applySet(env, stmt);
        return r;
      }
      TableResult result = env.executeSql(stmt);
      if (kind.equals("explain")) {
        try (CloseableIterator<Row> it = result.collect()) {
          StringBuilder sb = new StringBuilder();
          while (it.hasNext()) sb.append(it.next().getField(0));
          r.put("output", sb.toString());
        }
      }
    } catch (Throwable e) {
      putError(r, e, "plan");
    }
    return r;
  }

  private void runJob(TableEnvironment env, String stmt, String kind, Path sinkDir, int index,
      Map<String, Object> r) {
    List<Runnable> restore = new ArrayList<>();
    Map<String, Path> sinkFiles = new LinkedHashMap<>();
    Map<String, String> sinkConnectors = new LinkedHashMap<>();
    try {
      if (kind.equals("insert")) redirectSinks(env, stmt, sinkDir, index, sinkFiles, sinkConnectors, restore);
      String explained = stmt.replaceFirst("(?is)^\\s*EXECUTE\\s+STATEMENT\\s+SET", "STATEMENT SET");
      try {
        TableResult plan = env.executeSql("EXPLAIN CHANGELOG_MODE " + explained);
        try (CloseableIterator<Row> it = plan.collect()) {
          StringBuilder sb = new StringBuilder();
          while (it.hasNext()) sb.append(it.next().getField(0));
          r.put("explain", sb.toString());
        }
      } catch (Throwable e) {
        putError(r, e, "plan");
        return;
      }
      long cpu0 = processCpuNanos();
      long wall0 = System.nanoTime();
      String phase = "plan";
      try {
        TableResult result = env.executeSql(stmt);
        phase = "run";
        Optional<JobClient> job = result.getJobClient();
        ScheduledFuture<?> cancel = watchdog.schedule(() -> job.ifPresent(JobClient::cancel),
            timeoutSeconds, TimeUnit.SECONDS);
        try {
          if (kind.equals("query")) {
            r.put("rows", collectRows(result));
          } else {
            result.await();
          }
        } finally {
          cancel.cancel(false);
        }
      } catch (Throwable e) {
        putError(r, e, phase);
      }
      r.put("wall_ms", (System.nanoTime() - wall0) / 1e6);
      r.put("cpu_ms", (processCpuNanos() - cpu0) / 1e6);
      if (!sinkFiles.isEmpty()) {
        Map<String, Object> sinks = new LinkedHashMap<>();
        for (Map.Entry<String, Path> s : sinkFiles.entrySet()) {
          File f = s.getValue().toFile();
          Map<String, Object> sink = new LinkedHashMap<>();
          sink.put("connector", sinkConnectors.get(s.getKey()));
          sink.put("rows", f.exists() ? Files.readAllLines(s.getValue(), StandardCharsets.UTF_8) : List.of());
          Path encoded = Path.of(s.getValue() + ".encoded");
          if (Files.exists(encoded)) sink.put("encoded", Files.readAllLines(encoded, StandardCharsets.UTF_8));
          sinks.put(s.getKey(), sink);
        }
        r.put("sinks", sinks);
      }
    } catch (Throwable e) {
      putError(r, e, "runner");
    } finally {
      for (Runnable undo : restore) undo.run();
    }
  }

  private static List<String> collectRows(TableResult result) throws Exception {
    DataType type = result.getResolvedSchema().toPhysicalRowDataType();
    @SuppressWarnings("unchecked")
    DataStructureConverter<Object, Object> converter =
        (DataStructureConverter<Object, Object>) DataStructureConverters.getConverter(type);
    converter.open(FlinkRunner.class.getClassLoader());
    JsonlRows lines = new JsonlRows((RowType) type.getLogicalType());
    List<String> rows = new ArrayList<>();
    try (CloseableIterator<Row> it = result.collect()) {
      while (it.hasNext()) rows.add(lines.line((RowData) converter.toInternalOrNull(it.next())));
    }
    return rows;
  }

  /**
   * Points every 'print', 'blackhole' and 'filesystem' table the statement inserts into at the
   * collecting sink (CollectSinkFactory) for this statement; `restore` puts the tables back.
   */
  private static void redirectSinks(TableEnvironment env, String stmt, Path sinkDir, int index,
      Map<String, Path> files, Map<String, String> connectors, List<Runnable> restore) throws Exception {
    Set<String> targets = new LinkedHashSet<>();
    Matcher m = INSERT_TARGET.matcher(stmt);
    while (m.find()) targets.add(m.group(1));
    for (String target : targets) {
      String[] parts = target.split("\\s*\\.\\s*");
      String catalogName = parts.length == 3 ? unquote(parts[0]) : env.getCurrentCatalog();
      String db = parts.length >= 2 ? unquote(parts[parts.length - 2]) : env.getCurrentDatabase();
      String table = unquote(parts[parts.length - 1]);
      Optional<Catalog> catalog = env.getCatalog(catalogName);
      if (catalog.isEmpty()) continue;
      ObjectPath path = new ObjectPath(db, table);
      if (!catalog.get().tableExists(path)) continue;
      CatalogBaseTable base = catalog.get().getTable(path);
      if (!(base instanceof CatalogTable)) continue;
      CatalogTable original = (CatalogTable) base;
      String connector = original.getOptions().get("connector");
      if (connector == null || !CAPTURED.contains(connector)) continue;
      Path file = sinkDir.resolve(index + "-" + table + ".jsonl");
      Files.deleteIfExists(file);
      Files.deleteIfExists(Path.of(file + ".encoded"));
      Map<String, String> options = new LinkedHashMap<>(original.getOptions());
      options.put("connector", CollectSinkFactory.IDENTIFIER);
      options.put(CollectSinkFactory.ORIGIN, connector);
      options.put(CollectSinkFactory.FILE, file.toAbsolutePath().toString());
      catalog.get().alterTable(path, original.copy(options), false);
      files.put(table, file);
      connectors.put(table, connector);
      Catalog c = catalog.get();
      restore.add(() -> {
        try {
          c.alterTable(path, original, false);
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
    }
  }

  private static final Pattern BATCH_MODE = Pattern.compile(
      "(?im)^\\s*SET\\s+'execution\\.runtime-mode'\\s*=\\s*'batch'");

  private static final Pattern SET = Pattern.compile(
      "(?is)^\\s*(SET|RESET)\\s*(?:'((?:[^']|'')*)'(?:\\s*=\\s*'((?:[^']|'')*)')?)?\\s*$");

  /**
   * SET 'key' = 'value' and RESET 'key', the SQL client's statements (TableEnvironment.executeSql
   * does not take them): applied to the table config of the script's environment.
   */
  private static void applySet(TableEnvironment env, String stmt) {
    String code = stmt.replaceAll("(?s)/\\*.*?\\*/", " ").replaceAll("--[^\\n]*", " ").trim();
    Matcher m = SET.matcher(code);
    if (!m.matches() || m.group(2) == null) {
      throw new IllegalArgumentException("the runner understands only SET 'key' = 'value' and RESET 'key': " + stmt);
    }
    String key = m.group(2).replace("''", "'");
    if (m.group(1).equalsIgnoreCase("RESET")) {
      env.getConfig().getConfiguration().removeKey(key);
    } else if (m.group(3) == null) {
      throw new IllegalArgumentException("SET without a value: " + stmt);
    } else {
      env.getConfig().set(key, m.group(3).replace("''", "'"));
    }
  }

  private static String unquote(String s) {
    s = s.trim();
    return s.startsWith("`") && s.endsWith("`") ? s.substring(1, s.length() - 1) : s;
  }

  private static void putError(Map<String, Object> r, Throwable e, String phase) {
    List<String> chain = new ArrayList<>();
    for (Throwable t = e; t != null && chain.size() < 12; t = t.getCause()) {
      chain.add(t.getClass().getName() + ": " + t.getMessage());
      if (t.getCause() == t) break;
    }
    r.put("error_phase", phase);
    r.put("error", chain);
  }

  private static long processCpuNanos() {
    java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    if (os instanceof com.sun.management.OperatingSystemMXBean) {
      return ((com.sun.management.OperatingSystemMXBean) os).getProcessCpuTime();
    }
    return 0;
  }

  private static long peakRssBytes() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("VmHWM:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
        }
      }
    } catch (IOException | NumberFormatException e) {
      return -1;
    }
    return -1;
  }
}
