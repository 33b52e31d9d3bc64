package sluice.flink;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;

/**
 * Runs Flink SQL scripts (e.g. bench/nexmark/ddl.sql then a bench/nexmark/qN.sql) in one streaming
 * TableEnvironment on one local MiniCluster in this JVM (started first) at parallelism 1, waits for every job
 * (INSERT, statement set, or SELECT, whose rows are drained and dropped) and prints one summary
 * line on stderr for bench/flink/bench_flink.py:
 *
 *   flink-bench: elapsed=<s>s job_cpu=<s>s process_cpu=<s>s peak_rss=<bytes>
 *
 * elapsed and job_cpu span the jobs from their submission (planning and code generation included)
 * to their end; process_cpu is the whole JVM's CPU time (start-up, planning, warm-up and JIT
 * included); peak_rss is the process's high-water mark (VmHWM).
 *
 * With --warmup-events W --events N, each job first runs once over W events of the 'datagen' table
 * (ALTER TABLE datagen SET 'events.num'), unmeasured, so the measured run over N events finds the
 * JVM's classes loaded, its JIT warm and the planner's generated code compiled (Flink caches it):
 * a steady state, as a long-running job would see.
 *
 *   java -cp "$(scripts/install-flink-bench.sh)" sluice.flink.FlinkBench [--warmup-events W --events N] SCRIPT.sql...
 */
public final class FlinkBench {
  private FlinkBench() {}

  public static void main(String[] args) {
    try {
      run(args);
    } catch (Throwable t) {
      // The MiniCluster's threads would keep the JVM alive after main ends: exit explicitly.
      t.printStackTrace();
      System.exit(1);
    }
    System.exit(0);
  }

  private static void run(String[] args) throws Exception {
    // One MiniCluster for the process, started before any measurement, and jobs submitted to it
    // through its REST endpoint (as FlinkRunner does): the measured job does not pay a cluster start.
    Configuration clusterConf = new Configuration();
    clusterConf.set(RestOptions.BIND_PORT, "0");
    clusterConf.set(RestOptions.ADDRESS, "127.0.0.1");
    clusterConf.set(RestOptions.BIND_ADDRESS, "127.0.0.1");
    MiniCluster cluster = new MiniCluster(new MiniClusterConfiguration.Builder().setConfiguration(clusterConf)
        .setNumTaskManagers(1).setNumSlotsPerTaskManager(4).build());
    cluster.start();
    java.net.URI rest = cluster.getRestAddress().get();
    Configuration conf = new Configuration();
    conf.setString("execution.target", "remote");
    conf.setString("rest.address", rest.getHost());
    conf.setString("rest.port", Integer.toString(rest.getPort()));
    EnvironmentSettings settings = EnvironmentSettings.newInstance().inStreamingMode().withConfiguration(conf).build();
    TableEnvironment env = TableEnvironment.create(settings);
    env.getConfig().set("parallelism.default", "1");
    env.getConfig().set("table.exec.resource.default-parallelism", "1");
    long jobNanos = 0;
    long jobCpu = 0;
    long warmup = 0;
    long events = 0;
    java.util.List<String> files = new java.util.ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--warmup-events")) warmup = Long.parseLong(args[++i]);
      else if (args[i].equals("--events")) events = Long.parseLong(args[++i]);
      else files.add(args[i]);
    }
    for (String file : files) {
      String text = Files.readString(Path.of(file), StandardCharsets.UTF_8);
      for (String stmt : ScriptSplitter.split(text)) {
        String head = FlinkRunner.headWords(stmt);
        boolean job = head.startsWith("INSERT") || head.startsWith("EXECUTE") || head.startsWith("SELECT")
            || head.startsWith("WITH");
        if (!job) {
          env.executeSql(stmt);
          continue;
        }
        if (warmup > 0) {
          env.executeSql("ALTER TABLE datagen SET ('events.num' = '" + warmup + "')");
          runJob(env, stmt, head);
          env.executeSql("ALTER TABLE datagen SET ('events.num' = '" + events + "')");
        }
        long w0 = System.nanoTime();
        long c0 = processCpuNanos();
        runJob(env, stmt, head);
        jobNanos += System.nanoTime() - w0;
        jobCpu += processCpuNanos() - c0;
      }
    }
    System.err.printf(Locale.ROOT, "flink-bench: elapsed=%.3fs job_cpu=%.3fs process_cpu=%.3fs peak_rss=%d%n",
        jobNanos / 1e9, jobCpu / 1e9, processCpuNanos() / 1e9, peakRssBytes());
  }

  private static void runJob(TableEnvironment env, String stmt, String head) throws Exception {
    TableResult result = env.executeSql(stmt);
    if (head.startsWith("SELECT") || head.startsWith("WITH")) {
      try (var it = result.collect()) {
        while (it.hasNext()) it.next();
      }
    } else {
      result.await();
    }
  }

  private static long processCpuNanos() {
    java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    if (os instanceof com.sun.management.OperatingSystemMXBean) {
      return ((com.sun.management.OperatingSystemMXBean) os).getProcessCpuTime();
    }
    return 0;
  }

  private static long peakRssBytes() throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
      if (line.startsWith("VmHWM:")) return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
    }
    return -1;
  }
}
