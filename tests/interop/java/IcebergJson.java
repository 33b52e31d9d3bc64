// Iceberg generic values as JSON in Sluice's jsonl conventions (docs: DESIGN.md section 9): TIMESTAMP and
// TIMESTAMP_LTZ as "2026-08-15 05:00:00.000000" (Iceberg's microsecond precision; LTZ with a trailing
// 'Z', as Sluice's JSON writer prints it), DATE "2026-08-15", TIME "05:00:00.000000", DECIMAL as a plain
// JSON number, binary/fixed as base64, UUID as its text, lists as arrays, maps and structs as objects,
// NULL as null. Shared by IcebergReadTable and IcebergWriteTable (compiled together by javac).
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

final class IcebergJson {
  private static final DateTimeFormatter TS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS");
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSSSSS");

  private IcebergJson() {}

  static String row(Schema schema, Record record) {
    StringBuilder out = new StringBuilder();
    struct(schema.asStruct(), record, out);
    return out.toString();
  }

  static void struct(Types.StructType type, Record record, StringBuilder out) {
    out.append('{');
    List<Types.NestedField> fields = type.fields();
    for (int i = 0; i < fields.size(); i++) {
      if (i > 0) out.append(',');
      string(fields.get(i).name(), out);
      out.append(':');
      value(fields.get(i).type(), record.get(i), out);
    }
    out.append('}');
  }

  static void value(Type type, Object v, StringBuilder out) {
    if (v == null) {
      out.append("null");
      return;
    }
    switch (type.typeId()) {
      case BOOLEAN, INTEGER, LONG -> out.append(v);
      case FLOAT, DOUBLE -> {
        double d = ((Number) v).doubleValue();
        if (Double.isFinite(d)) {
          out.append(v);
        } else {
          string(v.toString(), out);
        }
      }
      case DECIMAL -> out.append(((BigDecimal) v).toPlainString());
      case STRING -> string(v.toString(), out);
      case UUID -> string(v.toString(), out);
      case DATE -> string(((LocalDate) v).toString(), out);
      case TIME -> string(TIME.format((LocalTime) v), out);
      case TIMESTAMP, TIMESTAMP_NANO -> {
        if (v instanceof OffsetDateTime odt) {
          string(TS.format(odt.withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime()) + "Z", out);
        } else {
          string(TS.format((LocalDateTime) v), out);
        }
      }
      case BINARY, FIXED -> {
        byte[] bytes;
        if (v instanceof ByteBuffer bb) {
          ByteBuffer dup = bb.duplicate();
          bytes = new byte[dup.remaining()];
          dup.get(bytes);
        } else {
          bytes = (byte[]) v;
        }
        string(Base64.getEncoder().encodeToString(bytes), out);
      }
      case LIST -> {
        Type element = type.asListType().elementType();
        out.append('[');
        boolean first = true;
        for (Object e : (List<?>) v) {
          if (!first) out.append(',');
          first = false;
          value(element, e, out);
        }
        out.append(']');
      }
      case MAP -> {
        Types.MapType map = type.asMapType();
        out.append('{');
        boolean first = true;
        for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
          if (!first) out.append(',');
          first = false;
          StringBuilder key = new StringBuilder();
          if (map.keyType().typeId() == Type.TypeID.STRING) {
            key.append(e.getKey());
          } else {
            value(map.keyType(), e.getKey(), key);
          }
          string(key.toString(), out);
          out.append(':');
          value(map.valueType(), e.getValue(), out);
        }
        out.append('}');
      }
      case STRUCT -> struct(type.asStructType(), (Record) v, out);
      default -> throw new IllegalArgumentException("no JSON form for Iceberg type " + type);
    }
  }

  static void string(String s, StringBuilder out) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }

  static String summary(org.apache.iceberg.Snapshot s) {
    StringBuilder out = new StringBuilder("{\"snapshot-id\":").append(s.snapshotId());
    out.append(",\"sequence-number\":").append(s.sequenceNumber());
    out.append(",\"operation\":");
    string(String.valueOf(s.operation()), out);
    out.append(",\"summary\":{");
    boolean first = true;
    for (Map.Entry<String, String> e : new java.util.TreeMap<>(s.summary()).entrySet()) {
      if (!first) out.append(',');
      first = false;
      string(e.getKey(), out);
      out.append(':');
      string(e.getValue(), out);
    }
    return out.append("}}").toString();
  }

  static List<String> sorted(List<String> rows) {
    List<String> copy = new ArrayList<>(rows);
    java.util.Collections.sort(copy);
    return copy;
  }
}
