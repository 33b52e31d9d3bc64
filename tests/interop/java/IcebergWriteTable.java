// The Java reference (iceberg-core/-data/-parquet) as an independent writer: creates tables in a hadoop
// catalog warehouse the way Java writers do and prints, per table, the rows a reader must see.
//
//   IcebergWriteTable WAREHOUSE OUTDIR
//
// Tables (namespace `java`): all_types (v2, two appends, every common type and nulls), eq_deletes (v2,
// equality deletes by id and by name, an upsert-style RowDelta adding a row and deleting its key in one
// commit, a re-insert after a delete), eq_deletes_part (v2, identity(name), equality deletes within
// partitions), pos_deletes (v2, position deletes over two files and two commits), transforms (v2,
// bucket[4]/day/truncate[2]/hour with a position delete in one partition), dv (v3, deletion vectors),
// evolved (v2, columns added and renamed between appends). OUTDIR/<table>.jsonl holds the expected rows
// (IcebergJson, sorted); the expectation is kept as a model next to the writes (not read back), and then
// checked against IcebergGenerics' read of the table so a wrong model fails here, not in the test.
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;

public final class IcebergWriteTable {
  private final HadoopCatalog catalog;
  private final Path outDir;

  private IcebergWriteTable(HadoopCatalog catalog, Path outDir) {
    this.catalog = catalog;
    this.outDir = outDir;
  }

  /** A table being written plus the rows it must hold (the model). */
  private final class Written {
    final Table table;
    final IcebergFiles files;
    final List<Record> model = new ArrayList<>();

    Written(String name, Schema schema, PartitionSpec spec, int formatVersion) {
      Map<String, String> props = new HashMap<>();
      props.put("format-version", Integer.toString(formatVersion));
      props.put("write.parquet.compression-codec", "zstd");
      table = catalog.createTable(TableIdentifier.of("java", name), schema, spec, props);
      files = new IcebergFiles(table);
    }

    Record row(Object... values) {
      GenericRecord r = GenericRecord.create(table.schema());
      for (int i = 0; i < values.length; i++) r.set(i, values[i]);
      return r;
    }

    void append(Record... rows) throws IOException {
      List<Record> list = Arrays.asList(rows);
      AppendFiles append = table.newAppend();
      for (DataFile f : files.writeData(list)) append.appendFile(f);
      append.commit();
      model.addAll(list);
      table.refresh();
    }

    /** One RowDelta: equality deletes of `keys` (on `keySchema`'s columns), then `rows` added. */
    void upsert(Schema keySchema, List<Record> keys, Predicate<Record> deleted, Record... rows) throws IOException {
      RowDelta delta = table.newRowDelta();
      for (DeleteFile f : files.writeEqualityDeletes(keySchema, keys)) delta.addDeletes(f);
      List<Record> list = Arrays.asList(rows);
      if (!list.isEmpty()) {
        for (DataFile f : files.writeData(list)) delta.addRows(f);
      }
      delta.commit();
      // An equality delete applies to rows of older sequence numbers only, not to this commit's rows.
      model.removeIf(deleted);
      model.addAll(list);
      table.refresh();
    }

    void deletePositions(boolean deletionVectors, Record... rows) throws IOException {
      List<Record> list = Arrays.asList(rows);
      List<DeleteFile> deletes = deletionVectors ? files.writeDeletionVectors(list) : files.writePositionDeletes(list);
      RowDelta delta = table.newRowDelta();
      for (DeleteFile f : deletes) delta.addDeletes(f);
      delta.commit();
      model.removeIf(r -> list.stream().anyMatch(d -> d == r));
      table.refresh();
    }

    void finish(String name) throws IOException {
      List<String> expected = new ArrayList<>();
      for (Record r : model) expected.add(IcebergJson.row(table.schema(), r));
      expected = IcebergJson.sorted(expected);
      List<String> read = new ArrayList<>();
      try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
        for (Record r : records) read.add(IcebergJson.row(table.schema(), r));
      }
      read = IcebergJson.sorted(read);
      if (!read.equals(expected)) {
        throw new IllegalStateException("java." + name + ": IcebergGenerics reads " + read + " but the model is " + expected);
      }
      Files.writeString(outDir.resolve(name + ".jsonl"), String.join("\n", expected) + (expected.isEmpty() ? "" : "\n"));
    }
  }

  private static Types.NestedField opt(int id, String name, org.apache.iceberg.types.Type type) {
    return Types.NestedField.optional(id, name, type);
  }

  private static LocalDateTime ts(String s) {
    return LocalDateTime.parse(s);
  }

  private static OffsetDateTime tstz(String s) {
    return LocalDateTime.parse(s).atOffset(ZoneOffset.UTC);
  }

  private static BigDecimal dec(String s) {
    return new BigDecimal(s);
  }

  private void allTypes() throws IOException {
    Schema schema = new Schema(
        Types.NestedField.required(1, "id", Types.LongType.get()), opt(2, "i", Types.IntegerType.get()),
        opt(3, "name", Types.StringType.get()), opt(4, "price", Types.DecimalType.of(10, 2)),
        opt(5, "d", Types.DateType.get()), opt(6, "ts", Types.TimestampType.withoutZone()),
        opt(7, "tstz", Types.TimestampType.withZone()), opt(8, "flag", Types.BooleanType.get()),
        opt(9, "score", Types.DoubleType.get()), opt(10, "f", Types.FloatType.get()),
        opt(11, "bin", Types.BinaryType.get()),
        opt(12, "tags", Types.ListType.ofOptional(15, Types.StringType.get())),
        opt(13, "attrs", Types.MapType.ofOptional(16, 17, Types.StringType.get(), Types.LongType.get())),
        opt(14, "loc", Types.StructType.of(opt(18, "lat", Types.DoubleType.get()), opt(19, "lon", Types.DoubleType.get()))));
    Written t = new Written("all_types", schema, PartitionSpec.unpartitioned(), 2);
    Map<String, Long> attrs = new java.util.LinkedHashMap<>();
    attrs.put("a", 1L);
    attrs.put("b", null);
    Record loc = GenericRecord.create(schema.findField("loc").type().asStructType());
    loc.set(0, 1.5);
    loc.set(1, -2.25);
    ByteBuffer bin = ByteBuffer.wrap("spark".getBytes(StandardCharsets.UTF_8));
    t.append(
        t.row(1L, 10, "SG-0042", dec("12.50"), LocalDate.parse("2026-08-15"), ts("2026-08-15T05:00:00"),
              tstz("2026-08-15T05:00:00.123456"), true, 2.5, 1.25f, bin, Arrays.asList("x", null, "z"), attrs, loc),
        t.row(2L, null, null, null, null, null, null, null, null, null, null, null, null, null),
        t.row(3L, -7, "naïve \"quoted\"", dec("-0.01"), LocalDate.parse("1970-01-01"), ts("1999-12-31T23:59:59.999999"),
              tstz("2000-01-01T00:00:00"), false, -1e10, -0.5f, ByteBuffer.wrap(new byte[0]), new ArrayList<>(),
              new HashMap<>(), GenericRecord.create(schema.findField("loc").type().asStructType())));
    t.append(t.row(4L, 2147483647, "", dec("99999999.99"), LocalDate.parse("2026-12-31"), ts("2026-12-31T23:00:00"),
                   tstz("2026-12-31T23:00:00"), true, 0.0, 3.0f, null, Arrays.asList("only"), null, null));
    t.finish("all_types");
  }

  private Schema keyedSchema() {
    return new Schema(Arrays.asList(Types.NestedField.required(1, "id", Types.LongType.get()),
                                    opt(2, "name", Types.StringType.get()), opt(3, "bir", Types.DateType.get())),
                      java.util.Set.of(1));
  }

  private static Record key(Schema keySchema, Object... values) {
    GenericRecord r = GenericRecord.create(keySchema);
    for (int i = 0; i < values.length; i++) r.set(i, values[i]);
    return r;
  }

  private void equalityDeletes() throws IOException {
    Schema schema = keyedSchema();
    Written t = new Written("eq_deletes", schema, PartitionSpec.unpartitioned(), 2);
    LocalDate day = LocalDate.parse("2025-01-01");
    t.append(t.row(1L, "a", day), t.row(2L, "b", day.plusDays(1)), t.row(3L, "c", day.plusDays(2)),
             t.row(4L, "d", day.plusDays(3)));
    Schema byId = schema.select("id");
    Schema byName = schema.select("name");
    t.upsert(byId, List.of(key(byId, 1L)), r -> r.getField("id").equals(1L));
    t.upsert(byName, List.of(key(byName, "c")), r -> "c".equals(r.getField("name")));
    // Flink's upsert: the key's delete and the new row in one commit; the new row survives.
    t.upsert(byId, List.of(key(byId, 2L)), r -> r.getField("id").equals(2L), t.row(2L, "b2", day.plusDays(9)));
    t.append(t.row(1L, "a-again", day));
    t.finish("eq_deletes");
  }

  private void partitionedEqualityDeletes() throws IOException {
    Schema schema = keyedSchema();
    Written t = new Written("eq_deletes_part", schema, PartitionSpec.builderFor(schema).identity("name").build(), 2);
    LocalDate day = LocalDate.parse("2025-01-01");
    t.append(t.row(1L, "a", day), t.row(2L, "b", day), t.row(3L, "c", day), t.row(4L, "d", day), t.row(5L, "b", day));
    Schema byIdName = schema.select("id", "name");
    Schema byName = schema.select("name");
    t.upsert(byIdName, List.of(key(byIdName, 3L, "c")), r -> r.getField("id").equals(3L));
    t.upsert(byName, List.of(key(byName, "b")), r -> "b".equals(r.getField("name")));
    t.append(t.row(6L, "b", day));
    t.finish("eq_deletes_part");
  }

  private void positionDeletes() throws IOException {
    Schema schema = keyedSchema();
    Written t = new Written("pos_deletes", schema, PartitionSpec.unpartitioned(), 2);
    LocalDate day = LocalDate.parse("2025-01-01");
    Record[] a = {t.row(1L, "a", day), t.row(2L, "b", day), t.row(3L, "c", day), t.row(4L, "d", day), t.row(5L, "e", day)};
    Record[] b = {t.row(6L, "f", day), t.row(7L, "g", day), t.row(8L, "h", day)};
    t.append(a);
    t.append(b);
    t.deletePositions(false, a[1], a[3], b[0]);
    t.deletePositions(false, a[4]);
    t.finish("pos_deletes");
  }

  private void transforms() throws IOException {
    Schema schema = new Schema(Types.NestedField.required(1, "id", Types.LongType.get()), opt(2, "name", Types.StringType.get()),
                               opt(3, "ts", Types.TimestampType.withoutZone()), opt(4, "tstz", Types.TimestampType.withZone()),
                               opt(5, "amount", Types.DecimalType.of(10, 2)));
    PartitionSpec spec = PartitionSpec.builderFor(schema).bucket("id", 4).day("ts").truncate("name", 2).hour("tstz").build();
    Written t = new Written("transforms", schema, spec, 2);
    Record[] rows = {
        t.row(1L, "alpha", ts("2026-08-15T05:00:00"), tstz("2026-08-15T05:30:00"), dec("1.00")),
        t.row(2L, "alpine", ts("2026-08-15T23:59:59"), tstz("2026-08-15T05:59:59"), dec("2.00")),
        t.row(3L, "beta", ts("2026-08-16T00:00:00"), tstz("2026-08-16T00:00:00"), dec("-3.50")),
        t.row(4L, null, null, null, null),
        t.row(5L, "b", ts("1969-12-31T23:59:59.999999"), tstz("1969-12-31T23:00:00"), dec("0.05"))};
    t.append(rows);
    t.deletePositions(false, rows[2]);
    t.finish("transforms");
  }

  private void deletionVectors() throws IOException {
    Schema schema = keyedSchema();
    Written t = new Written("dv", schema, PartitionSpec.builderFor(schema).identity("name").build(), 3);
    LocalDate day = LocalDate.parse("2025-01-01");
    Record[] a = {t.row(1L, "a", day), t.row(2L, "a", day), t.row(3L, "a", day), t.row(4L, "b", day), t.row(5L, "b", day)};
    Record[] b = {t.row(6L, "a", day), t.row(7L, "c", day)};
    t.append(a);
    t.append(b);
    t.deletePositions(true, a[0], a[2], a[4]);
    t.deletePositions(true, b[1]);
    t.finish("dv");
  }

  private void schemaEvolution() throws IOException {
    Schema schema = new Schema(Types.NestedField.required(1, "id", Types.LongType.get()), opt(2, "name", Types.StringType.get()));
    Written t = new Written("evolved", schema, PartitionSpec.unpartitioned(), 2);
    t.append(t.row(1L, "a"), t.row(2L, "b"));
    t.table.updateSchema().addColumn("score", Types.DoubleType.get()).renameColumn("name", "label").commit();
    t.table.refresh();
    List<Record> old = new ArrayList<>(t.model);
    t.model.clear();
    for (Record r : old) t.model.add(t.row(r.getField("id"), r.getField("name"), null));
    t.append(t.row(3L, "c", 0.5), t.row(4L, null, 4.0));
    t.finish("evolved");
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      System.err.println("usage: IcebergWriteTable WAREHOUSE OUTDIR");
      System.exit(2);
    }
    HadoopCatalog catalog = new HadoopCatalog(new Configuration(), args[0]);
    catalog.createNamespace(Namespace.of("java"));
    Path out = Path.of(args[1]);
    Files.createDirectories(out);
    IcebergWriteTable w = new IcebergWriteTable(catalog, out);
    w.allTypes();
    w.equalityDeletes();
    w.partitionedEqualityDeletes();
    w.positionDeletes();
    w.transforms();
    w.deletionVectors();
    w.schemaEvolution();
    System.out.println("IcebergWriteTable: wrote 7 tables under " + args[0] + "/java");
  }
}
