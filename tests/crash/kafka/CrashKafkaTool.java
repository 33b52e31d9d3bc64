// The crash harness's side of a real Kafka broker (crash_harness.py --kafka): one JVM for the whole
// run, driven by lines on standard input, so each case does not pay a JVM start per topic.
//
//   java -cp '<kafka jars>:<dir of this class>' CrashKafkaTool BOOTSTRAP
//
// Commands (one per line; each answer ends with a line "ok ..." or "error <message>"):
//   create TOPIC PARTITIONS      creates the topic (replication factor 1)
//   delete TOPIC...              deletes the topics
//   read TOPIC...                every record of the topics as a read_committed consumer sees them,
//                                from the beginning to the last stable offset (no waiting for an idle
//                                timeout, but until no transaction holds the LSO back): one line per record,
//                                "r<TAB>topic<TAB>partition<TAB>offset<TAB>key<TAB>value" ("\N" for a null
//                                key or value), in offset order per partition
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

public class CrashKafkaTool {
  static final long READ_TIMEOUT_MS = 120_000;  // a bound, never an assertion on speed

  public static void main(String[] args) throws Exception {
    String bootstrap = args[0];
    Properties ap = new Properties();
    ap.put("bootstrap.servers", bootstrap);
    Properties cp = new Properties();
    cp.put("bootstrap.servers", bootstrap);
    cp.put("isolation.level", "read_committed");
    cp.put("enable.auto.commit", "false");
    cp.put("key.deserializer", ByteArrayDeserializer.class.getName());
    cp.put("value.deserializer", ByteArrayDeserializer.class.getName());
    cp.put("max.partition.fetch.bytes", "8388608");
    Properties up = new Properties();
    up.putAll(cp);
    up.put("isolation.level", "read_uncommitted");
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    try (Admin admin = Admin.create(ap); KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(cp);
         KafkaConsumer<byte[], byte[]> uncommitted = new KafkaConsumer<>(up)) {
      String line;
      while ((line = in.readLine()) != null) {
        String[] f = line.trim().split("\\s+");
        StringBuilder out = new StringBuilder();
        try {
          if (f[0].equals("create")) {
            admin.createTopics(Collections.singleton(new NewTopic(f[1], Integer.parseInt(f[2]), (short) 1))).all().get();
            out.append("ok\n");
          } else if (f[0].equals("delete")) {
            admin.deleteTopics(Arrays.asList(f).subList(1, f.length)).all().get();
            out.append("ok\n");
          } else if (f[0].equals("read")) {
            long n = read(consumer, uncommitted, Arrays.asList(f).subList(1, f.length), out);
            out.append("ok ").append(n).append('\n');
          } else {
            out.append("error unknown command ").append(f[0]).append('\n');
          }
        } catch (Exception e) {
          out.setLength(0);
          out.append("error ").append(String.valueOf(e).replace('\n', ' ')).append('\n');
        }
        System.out.print(out);
        System.out.flush();
      }
    }
  }

  // A key or value as one line of text ("\N" for null).
  static String text(byte[] b) {
    return b == null ? "\\N" : new String(b, StandardCharsets.UTF_8).replace("\n", "\\n").replace("\t", "\\t");
  }

  static long read(KafkaConsumer<byte[], byte[]> consumer, KafkaConsumer<byte[], byte[]> uncommitted, List<String> topics,
                   StringBuilder out) throws Exception {
    List<TopicPartition> tps = new ArrayList<>();
    for (String t : topics) {
      List<PartitionInfo> parts = consumer.partitionsFor(t, Duration.ofSeconds(30));
      if (parts == null || parts.isEmpty()) throw new IllegalStateException("no topic " + t);
      for (PartitionInfo p : parts) tps.add(new TopicPartition(t, p.partition()));
    }
    consumer.assign(tps);
    consumer.seekToBeginning(tps);
    // The last stable offsets, once no transaction is open on the partitions: a commit returns to the
    // producer when the coordinator has it, and the coordinator writes the commit markers into the
    // partitions afterwards, so right after a job ends its last transaction may still hold the LSO back.
    // Stable: the LSO (read_committed end offset) reached the high watermark (read_uncommitted's).
    long deadline = System.currentTimeMillis() + READ_TIMEOUT_MS;
    Map<TopicPartition, Long> end;
    while (true) {
      end = consumer.endOffsets(tps);
      if (end.equals(uncommitted.endOffsets(tps))) break;
      if (System.currentTimeMillis() > deadline) {
        throw new IllegalStateException("a transaction stays open: last stable offsets " + end + ", high watermarks "
            + uncommitted.endOffsets(tps));
      }
      Thread.sleep(100);
    }
    long n = 0;
    while (true) {
      boolean done = true;
      for (TopicPartition tp : tps) {
        if (consumer.position(tp) < end.get(tp)) done = false;
      }
      if (done) break;
      if (System.currentTimeMillis() > deadline) throw new IllegalStateException("read timed out at " + end);
      for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
        if (r.offset() >= end.get(new TopicPartition(r.topic(), r.partition()))) continue;
        out.append("r\t").append(r.topic()).append('\t').append(r.partition()).append('\t').append(r.offset())
            .append('\t').append(text(r.key())).append('\t').append(text(r.value()));
        out.append('\n');
        ++n;
      }
    }
    consumer.unsubscribe();
    return n;
  }
}
