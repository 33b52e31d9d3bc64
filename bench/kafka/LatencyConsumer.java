// End-to-end latency reader for bench/kafka/kafka_bench.py: reads N records of TOPIC (every partition,
// from the beginning) as a read_committed consumer and, for each, takes the wall clock when the
// record became visible minus the record's timestamp (the timestamp the producer gave the input
// record, which the pipeline copies to its output through the 'timestamp' metadata column). Prints
// "latency_ms n=<N> p50=<ms> p99=<ms> max=<ms>".
//
//   java -cp '<kafka jars>:<dir of this class>' LatencyConsumer BOOTSTRAP TOPIC N TIMEOUT_SECONDS
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

public class LatencyConsumer {
  public static void main(String[] args) throws Exception {
    Properties p = new Properties();
    p.put("bootstrap.servers", args[0]);
    p.put("isolation.level", "read_committed");
    p.put("enable.auto.commit", "false");
    p.put("fetch.max.wait.ms", "10");
    p.put("key.deserializer", ByteArrayDeserializer.class.getName());
    p.put("value.deserializer", ByteArrayDeserializer.class.getName());
    String topic = args[1];
    int n = Integer.parseInt(args[2]);
    long deadline = System.currentTimeMillis() + 1000L * Long.parseLong(args[3]);
    long[] lat = new long[n];
    int got = 0;
    try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p)) {
      List<TopicPartition> tps = new ArrayList<>();
      for (PartitionInfo pi : c.partitionsFor(topic, Duration.ofSeconds(30))) {
        tps.add(new TopicPartition(topic, pi.partition()));
      }
      c.assign(tps);
      c.seekToBeginning(tps);
      System.out.println("ready");
      System.out.flush();
      while (got < n && System.currentTimeMillis() < deadline) {
        for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(20))) {
          long now = System.currentTimeMillis();
          if (got < n) lat[got++] = now - r.timestamp();
        }
      }
    }
    long[] l = Arrays.copyOf(lat, got);
    Arrays.sort(l);
    if (got == 0) {
      System.out.println("latency_ms n=0");
      return;
    }
    System.out.printf("latency_ms n=%d p50=%d p99=%d max=%d%n", got, l[got / 2], l[Math.min(got - 1, (int) (got * 0.99))],
                      l[got - 1]);
  }
}
