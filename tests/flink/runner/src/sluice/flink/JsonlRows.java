package sluice.flink;

import java.io.Serializable;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.List;

import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.MultisetType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimeType;
import org.apache.flink.table.types.logical.TimestampType;

/**
 * Turns a changelog row into one line of the jsonl that `sluice run --format jsonl` prints
 * (DESIGN.md section 9): {"op":"+I","col":value,...}; TIMESTAMP as "2026-08-15 05:00:00.000" with as
 * many fraction digits as the type's precision, TIMESTAMP_LTZ the same in UTC with a trailing 'Z',
 * DATE "2026-08-15", TIME "05:00:00" (fraction per precision), DECIMAL as a plain JSON number with the
 * type's scale, DOUBLE/FLOAT as Java prints them (non-finite values quoted, as Jackson does), NULL as
 * null, ARRAY/MULTISET as arrays, ROW and MAP as objects, BYTES as base64 strings.
 */
final class JsonlRows implements Serializable {
  private static final long serialVersionUID = 1L;
  private final RowType rowType;

  JsonlRows(RowType rowType) {
    this.rowType = rowType;
  }

  String line(RowData row) {
    StringBuilder sb = new StringBuilder("{\"op\":\"").append(row.getRowKind().shortString()).append('"');
    List<RowType.RowField> fields = rowType.getFields();
    for (int i = 0; i < fields.size(); i++) {
      sb.append(',');
      appendString(fields.get(i).getName(), sb);
      sb.append(':');
      appendValue(RowData.createFieldGetter(fields.get(i).getType(), i).getFieldOrNull(row),
          fields.get(i).getType(), sb);
    }
    return sb.append('}').toString();
  }

  private static void appendValue(Object v, LogicalType type, StringBuilder sb) {
    if (v == null) {
      sb.append("null");
      return;
    }
    switch (type.getTypeRoot()) {
      case BOOLEAN: case TINYINT: case SMALLINT: case INTEGER: case BIGINT:
      case INTERVAL_YEAR_MONTH: case INTERVAL_DAY_TIME:
        sb.append(v);
        break;
      case FLOAT: case DOUBLE: {
        double d = ((Number) v).doubleValue();
        String text = v.toString();
        if (Double.isFinite(d)) sb.append(text); else sb.append('"').append(text).append('"');
        break;
      }
      case DECIMAL:
        sb.append(((DecimalData) v).toBigDecimal().toPlainString());
        break;
      case CHAR: case VARCHAR:
        appendString(((StringData) v).toString(), sb);
        break;
      case BINARY: case VARBINARY:
        sb.append('"').append(Base64.getEncoder().encodeToString((byte[]) v)).append('"');
        break;
      case DATE:
        sb.append('"').append(LocalDate.ofEpochDay((Integer) v)).append('"');
        break;
      case TIME_WITHOUT_TIME_ZONE: {
        LocalTime t = LocalTime.ofNanoOfDay(((Integer) v) * 1_000_000L);
        sb.append('"').append(timeText(t, ((TimeType) type).getPrecision())).append('"');
        break;
      }
      case TIMESTAMP_WITHOUT_TIME_ZONE: {
        LocalDateTime t = ((TimestampData) v).toLocalDateTime();
        sb.append('"').append(timestampText(t, ((TimestampType) type).getPrecision())).append('"');
        break;
      }
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE: {
        LocalDateTime t = LocalDateTime.ofInstant(((TimestampData) v).toInstant(), ZoneOffset.UTC);
        sb.append('"').append(timestampText(t, ((LocalZonedTimestampType) type).getPrecision()))
            .append("Z\"");
        break;
      }
      case ARRAY: {
        LogicalType element = ((ArrayType) type).getElementType();
        appendArray((ArrayData) v, element, sb);
        break;
      }
      case MULTISET: {
        // A multiset is a map from element to count; printed as the array of its elements.
        MapData m = (MapData) v;
        LogicalType element = ((MultisetType) type).getElementType();
        ArrayData.ElementGetter key = ArrayData.createElementGetter(element);
        sb.append('[');
        boolean first = true;
        for (int i = 0; i < m.size(); i++) {
          int count = m.valueArray().getInt(i);
          for (int c = 0; c < count; c++) {
            if (!first) sb.append(',');
            first = false;
            appendValue(key.getElementOrNull(m.keyArray(), i), element, sb);
          }
        }
        sb.append(']');
        break;
      }
      case MAP: {
        MapType mt = (MapType) type;
        MapData m = (MapData) v;
        ArrayData.ElementGetter key = ArrayData.createElementGetter(mt.getKeyType());
        ArrayData.ElementGetter value = ArrayData.createElementGetter(mt.getValueType());
        sb.append('{');
        for (int i = 0; i < m.size(); i++) {
          if (i > 0) sb.append(',');
          Object k = key.getElementOrNull(m.keyArray(), i);
          appendString(k == null ? "null" : k.toString(), sb);
          sb.append(':');
          appendValue(value.getElementOrNull(m.valueArray(), i), mt.getValueType(), sb);
        }
        sb.append('}');
        break;
      }
      case ROW: {
        RowType rt = (RowType) type;
        RowData r = (RowData) v;
        sb.append('{');
        for (int i = 0; i < rt.getFieldCount(); i++) {
          if (i > 0) sb.append(',');
          appendString(rt.getFieldNames().get(i), sb);
          sb.append(':');
          appendValue(RowData.createFieldGetter(rt.getTypeAt(i), i).getFieldOrNull(r), rt.getTypeAt(i), sb);
        }
        sb.append('}');
        break;
      }
      default:
        appendString(v.toString(), sb);
    }
  }

  private static void appendArray(ArrayData a, LogicalType element, StringBuilder sb) {
    ArrayData.ElementGetter getter = ArrayData.createElementGetter(element);
    sb.append('[');
    for (int i = 0; i < a.size(); i++) {
      if (i > 0) sb.append(',');
      appendValue(getter.getElementOrNull(a, i), element, sb);
    }
    sb.append(']');
  }

  static String timestampText(LocalDateTime t, int precision) {
    return t.toLocalDate() + " " + timeText(t.toLocalTime(), precision);
  }

  static String timeText(LocalTime t, int precision) {
    String s = String.format("%02d:%02d:%02d", t.getHour(), t.getMinute(), t.getSecond());
    if (precision > 0) {
      String nanos = String.format("%09d", t.getNano());
      s += "." + nanos.substring(0, Math.min(9, precision));
    }
    return s;
  }

  static void appendString(String s, StringBuilder sb) {
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"': sb.append("\\\""); break;
        case '\\': sb.append("\\\\"); break;
        case '\n': sb.append("\\n"); break;
        case '\r': sb.append("\\r"); break;
        case '\t': sb.append("\\t"); break;
        case '\b': sb.append("\\b"); break;
        case '\f': sb.append("\\f"); break;
        default:
          if (c < 0x20) sb.append(String.format("\\u%04x", (int) c)); else sb.append(c);
      }
    }
    sb.append('"');
  }
}
