package sluice.flink;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;

/**
 * Runs Flink SQL scripts (e.g. bench/nexmark/ddl.sql then a bench/nexmark/qN.sql) in one streaming
 * TableEnvironment on a local MiniCluster in this JVM at parallelism 1, waits for every job
 * (INSERT, statement set, or SELECT, whose rows are drained and dropped) and prints one summary
 * line on stderr for bench/flink/bench_flink.py:
 *
 *   flink-bench: elapsed=<s>s job_cpu=<s>s process_cpu=<s>s peak_rss=<bytes>
 *
 * elapsed and job_cpu span the jobs from their submission (planning and code generation included)
 * to their end; process_cpu is the whole JVM's CPU time (start-up, planning and JIT included);
 * peak_rss is the process's high-water mark (VmHWM).
 *
 *   java -cp '.java-deps/flink/lib/*:.java-deps/flink/classes:.java-deps/flink-bench/classes'
 *        sluice.flink.FlinkBench SCRIPT.sql...
 */
public final class FlinkBench {
  private FlinkBench() {}

  public static void main(String[] args) throws Exception {
    EnvironmentSettings settings = EnvironmentSettings.newInstance().inStreamingMode().build();
    TableEnvironment env = TableEnvironment.create(settings);
    env.getConfig().set("parallelism.default", "1");
    env.getConfig().set("table.exec.resource.default-parallelism", "1");
    long jobNanos = 0;
    long jobCpu = 0;
    for (String file : args) {
      String text = Files.readString(Path.of(file), StandardCharsets.UTF_8);
      for (String stmt : ScriptSplitter.split(text)) {
        String head = FlinkRunner.headWords(stmt);
        boolean job = head.startsWith("INSERT") || head.startsWith("EXECUTE") || head.startsWith("SELECT")
            || head.startsWith("WITH");
        long w0 = System.nanoTime();
        long c0 = processCpuNanos();
        TableResult result = env.executeSql(stmt);
        if (job) {
          if (head.startsWith("SELECT") || head.startsWith("WITH")) {
            try (var it = result.collect()) {
              while (it.hasNext()) it.next();
            }
          } else {
            result.await();
          }
          jobNanos += System.nanoTime() - w0;
          jobCpu += processCpuNanos() - c0;
        }
      }
    }
    System.err.printf(Locale.ROOT, "flink-bench: elapsed=%.3fs job_cpu=%.3fs process_cpu=%.3fs peak_rss=%d%n",
        jobNanos / 1e9, jobCpu / 1e9, processCpuNanos() / 1e9, peakRssBytes());
    System.exit(0);
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
