// A transactional producer for tests/interop/kafka_broker_test.py: writes to TOPIC (partition 0) one
// committed transaction with the values C1..C3, one ABORTED transaction with A1..A2 and one committed
// transaction with C4, so a read_committed consumer sees exactly C1..C4.
//
//   java -cp '<kafka jars>:<dir of this class>' TxnProducer BOOTSTRAP TOPIC
//
// With a third argument "open", it instead writes O1 in a transaction that it leaves open, prints
// "open", waits for its standard input to end and then aborts the transaction.
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

public class TxnProducer {
  public static void main(String[] args) throws Exception {
    Properties p = new Properties();
    p.put("bootstrap.servers", args[0]);
    boolean open = args.length > 2 && args[2].equals("open");
    p.put("transactional.id", open ? "sluice-test-open-txn" : "sluice-test-txn-producer");
    p.put("key.serializer", StringSerializer.class.getName());
    p.put("value.serializer", StringSerializer.class.getName());
    String topic = args[1];
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(p)) {
      producer.initTransactions();
      if (open) {
        producer.beginTransaction();
        producer.send(new ProducerRecord<>(topic, 0, "{\"k\":\"O1\"}", "{\"v\":\"O1\"}")).get();
        System.out.println("open");
        System.out.flush();
        while (System.in.read() >= 0) {
        }
        producer.abortTransaction();
        return;
      }
      send(producer, topic, true, "C1", "C2", "C3");
      send(producer, topic, false, "A1", "A2");
      send(producer, topic, true, "C4");
    }
  }

  static void send(KafkaProducer<String, String> producer, String topic, boolean commit, String... values)
      throws Exception {
    producer.beginTransaction();
    for (String v : values) producer.send(new ProducerRecord<>(topic, 0, "{\"k\":\"" + v + "\"}", "{\"v\":\"" + v + "\"}")).get();
    if (commit) {
      producer.commitTransaction();
    } else {
      producer.abortTransaction();
    }
  }
}
