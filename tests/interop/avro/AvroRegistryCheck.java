// The Java side of interop.kafka_avro_registry (tests/interop/kafka_avro_registry_test.py): Apache Avro's
// Java library and the Kafka Java client reading and writing the Confluent wire format (a 0 byte, the
// schema id as a big-endian int, the Avro binary datum) against a registry's Confluent-compatible API.
//
//   consume BOOTSTRAP TOPIC N REGISTRY        prints "<schema id>|<record>" for the first N records; each
//                                             writer schema is fetched by id and decoded with it
//   produce BOOTSTRAP TOPIC REGISTRY SUBJECT SCHEMA_JSON
//                                             registers SCHEMA_JSON under SUBJECT and writes one record per
//                                             stdin line (Avro's JSON encoding of a record of that schema)
//   produce-id BOOTSTRAP TOPIC ID SCHEMA_JSON  the same, framed with schema id ID, without registering
//
// Records print with Avro's logical type conversions (decimal, date, time-millis, timestamp-millis).
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.avro.Conversions;
import org.apache.avro.Schema;
import org.apache.avro.data.TimeConversions;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;

public class AvroRegistryCheck {
  static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  static GenericData model() {
    GenericData m = new GenericData();
    m.addLogicalTypeConversion(new Conversions.DecimalConversion());
    m.addLogicalTypeConversion(new TimeConversions.DateConversion());
    m.addLogicalTypeConversion(new TimeConversions.TimeMillisConversion());
    m.addLogicalTypeConversion(new TimeConversions.TimestampMillisConversion());
    return m;
  }

  static String http(String method, String url, String body) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
        .header("Content-Type", "application/vnd.schemaregistry.v1+json");
    b = body == null ? b.GET() : b.method(method, HttpRequest.BodyPublishers.ofString(body));
    HttpResponse<String> r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 200) throw new RuntimeException(method + " " + url + ": HTTP " + r.statusCode() + " " + r.body());
    return r.body();
  }

  static String jsonString(String s) {
    StringBuilder out = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      if (c == '"' || c == '\\') out.append('\\');
      out.append(c);
    }
    return out.append('"').toString();
  }

  // The "schema" string of {"schema": "..."}: parsed with Avro's bundled Jackson.
  static String schemaOf(String body) throws Exception {
    return new com.fasterxml.jackson.databind.ObjectMapper().readTree(body).get("schema").asText();
  }

  static void consume(String bootstrap, String topic, int n, String registry) throws Exception {
    Properties p = new Properties();
    p.put("bootstrap.servers", bootstrap);
    p.put("key.deserializer", "org.apache.kafka.common.serialization.ByteArrayDeserializer");
    p.put("value.deserializer", "org.apache.kafka.common.serialization.ByteArrayDeserializer");
    p.put("isolation.level", "read_committed");
    Map<Integer, Schema> schemas = new HashMap<>();
    int seen = 0;
    try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p)) {
      TopicPartition tp = new TopicPartition(topic, 0);
      c.assign(Collections.singletonList(tp));
      c.seekToBeginning(Collections.singletonList(tp));
      long deadline = System.currentTimeMillis() + 60_000;
      while (seen < n && System.currentTimeMillis() < deadline) {
        for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(500))) {
          ByteBuffer buf = ByteBuffer.wrap(r.value());
          if (buf.get() != 0) throw new RuntimeException("Unknown magic byte at offset " + r.offset());
          int id = buf.getInt();
          Schema writer = schemas.get(id);
          if (writer == null) {
            writer = new Schema.Parser().parse(schemaOf(http("GET", registry + "/schemas/ids/" + id, null)));
            schemas.put(id, writer);
          }
          GenericDatumReader<GenericRecord> reader = new GenericDatumReader<>(writer, writer, model());
          GenericRecord rec = reader.read(null, DecoderFactory.get().binaryDecoder(r.value(), 5, r.value().length - 5, null));
          System.out.println(id + "|" + rec);
          if (++seen == n) break;
        }
      }
    }
    if (seen < n) throw new RuntimeException("only " + seen + " of " + n + " records arrived");
  }

  static void produce(String bootstrap, String topic, int id, Schema schema) throws Exception {
    Properties p = new Properties();
    p.put("bootstrap.servers", bootstrap);
    p.put("key.serializer", "org.apache.kafka.common.serialization.ByteArraySerializer");
    p.put("value.serializer", "org.apache.kafka.common.serialization.ByteArraySerializer");
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
      for (String line; (line = in.readLine()) != null; ) {
        if (line.isBlank()) continue;
        GenericRecord rec = new GenericDatumReader<GenericRecord>(schema).read(null, DecoderFactory.get().jsonDecoder(schema, line));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(0);
        out.write(ByteBuffer.allocate(4).putInt(id).array());
        BinaryEncoder enc = EncoderFactory.get().binaryEncoder(out, null);
        new GenericDatumWriter<GenericRecord>(schema).write(rec, enc);
        enc.flush();
        producer.send(new ProducerRecord<>(topic, out.toByteArray())).get();
      }
    }
  }

  public static void main(String[] a) throws Exception {
    switch (a[0]) {
      case "consume":
        consume(a[1], a[2], Integer.parseInt(a[3]), a[4]);
        break;
      case "produce": {
        Schema schema = new Schema.Parser().parse(a[5]);
        String body = http("POST", a[3] + "/subjects/" + a[4] + "/versions", "{\"schema\":" + jsonString(schema.toString()) + "}");
        Matcher m = Pattern.compile("\"id\"\\s*:\\s*(\\d+)").matcher(body);
        if (!m.find()) throw new RuntimeException("no id in " + body);
        produce(a[1], a[2], Integer.parseInt(m.group(1)), schema);
        break;
      }
      case "produce-id":
        produce(a[1], a[2], Integer.parseInt(a[3]), new Schema.Parser().parse(a[4]));
        break;
      default:
        throw new IllegalArgumentException("unknown mode " + a[0]);
    }
  }
}
