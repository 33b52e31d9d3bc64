// Writes data files, equality deletes, position deletes and deletion vectors of one table the way Java
// writers do (GenericFileWriterFactory, OutputFileFactory, BaseDVFileWriter), one file per partition,
// and remembers where each written row landed (file path and position) for position deletes.
import java.io.IOException;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.BaseDVFileWriter;
import org.apache.iceberg.deletes.EqualityDeleteWriter;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.encryption.EncryptedOutputFile;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.OutputFileFactory;

final class IcebergFiles {
  /** Where a written row is: its data file and position, and the file's partition. */
  record Location(String path, long pos, StructLike partition) {}

  private final Table table;
  private final OutputFileFactory files;
  private final Map<Record, Location> locations = new IdentityHashMap<>();
  private int task = 0;

  IcebergFiles(Table table) {
    this.table = table;
    this.files = OutputFileFactory.builderFor(table, 1, 1).format(FileFormat.PARQUET).build();
  }

  Location location(Record row) {
    return locations.get(row);
  }

  private EncryptedOutputFile newFile(StructLike partition) {
    PartitionSpec spec = table.spec();
    return spec.isUnpartitioned() ? files.newOutputFile() : files.newOutputFile(spec, partition);
  }

  /** Groups rows by their partition under `schema` (the table's or an equality-delete schema). */
  private Map<StructLike, List<Record>> byPartition(Schema schema, List<Record> rows) {
    Map<StructLike, List<Record>> groups = new LinkedHashMap<>();
    PartitionKey key = new PartitionKey(table.spec(), schema);
    InternalRecordWrapper wrapper = new InternalRecordWrapper(schema.asStruct());
    for (Record r : rows) {
      key.partition(wrapper.wrap(r));
      groups.computeIfAbsent(key.copy(), k -> new ArrayList<>()).add(r);
    }
    return groups;
  }

  /** One data file per partition. */
  List<DataFile> writeData(List<Record> rows) throws IOException {
    GenericFileWriterFactory factory = new GenericFileWriterFactory.Builder(table).dataFileFormat(FileFormat.PARQUET).build();
    List<DataFile> out = new ArrayList<>();
    for (Map.Entry<StructLike, List<Record>> g : byPartition(table.schema(), rows).entrySet()) {
      StructLike partition = table.spec().isUnpartitioned() ? null : g.getKey();
      DataWriter<Record> writer = factory.newDataWriter(newFile(partition), table.spec(), partition);
      try (DataWriter<Record> w = writer) {
        for (Record r : g.getValue()) w.write(r);
      }
      DataFile file = writer.toDataFile();
      long pos = 0;
      for (Record r : g.getValue()) locations.put(r, new Location(file.location(), pos++, partition));
      out.add(file);
    }
    return out;
  }

  /** Equality deletes of `keys` (records of `deleteSchema`, which holds the partition's source columns). */
  List<DeleteFile> writeEqualityDeletes(Schema deleteSchema, List<Record> keys) throws IOException {
    int[] ids = deleteSchema.columns().stream().mapToInt(f -> f.fieldId()).toArray();
    GenericFileWriterFactory factory = new GenericFileWriterFactory.Builder(table).dataFileFormat(FileFormat.PARQUET)
        .deleteFileFormat(FileFormat.PARQUET).equalityFieldIds(ids).equalityDeleteRowSchema(deleteSchema).build();
    List<DeleteFile> out = new ArrayList<>();
    for (Map.Entry<StructLike, List<Record>> g : byPartition(deleteSchema, keys).entrySet()) {
      StructLike partition = table.spec().isUnpartitioned() ? null : g.getKey();
      EqualityDeleteWriter<Record> writer = factory.newEqualityDeleteWriter(newFile(partition), table.spec(), partition);
      try (EqualityDeleteWriter<Record> w = writer) {
        for (Record r : g.getValue()) w.write(r);
      }
      out.add(writer.toDeleteFile());
    }
    return out;
  }

  /** Position deletes of written rows, one delete file per partition, sorted by file and position. */
  List<DeleteFile> writePositionDeletes(List<Record> rows) throws IOException {
    GenericFileWriterFactory factory = new GenericFileWriterFactory.Builder(table).dataFileFormat(FileFormat.PARQUET)
        .deleteFileFormat(FileFormat.PARQUET).build();
    Map<StructLike, List<Location>> groups = new LinkedHashMap<>();
    Map<String, StructLike> partitionOf = new LinkedHashMap<>();
    for (Record r : rows) {
      Location l = locations.get(r);
      // Group by the data file's partition object (equal partitions share one delete file).
      StructLike p = partitionOf.computeIfAbsent(l.path(), k -> l.partition());
      groups.computeIfAbsent(p == null ? NO_PARTITION : p, k -> new ArrayList<>()).add(l);
    }
    List<DeleteFile> out = new ArrayList<>();
    for (Map.Entry<StructLike, List<Location>> g : groups.entrySet()) {
      StructLike partition = g.getKey() == NO_PARTITION ? null : g.getKey();
      List<Location> locs = new ArrayList<>(g.getValue());
      locs.sort((a, b) -> a.path().equals(b.path()) ? Long.compare(a.pos(), b.pos()) : a.path().compareTo(b.path()));
      PositionDeleteWriter<Record> writer = factory.newPositionDeleteWriter(newFile(partition), table.spec(), partition);
      try (PositionDeleteWriter<Record> w = writer) {
        PositionDelete<Record> delete = PositionDelete.create();
        for (Location l : locs) w.write(delete.set(l.path(), l.pos()));
      }
      out.add(writer.toDeleteFile());
    }
    return out;
  }

  /** Deletion vectors (format v3) of written rows: one Puffin file, one DV per data file. */
  List<DeleteFile> writeDeletionVectors(List<Record> rows) throws IOException {
    BaseDVFileWriter writer = new BaseDVFileWriter(files, path -> null);
    try (BaseDVFileWriter w = writer) {
      for (Record r : rows) {
        Location l = locations.get(r);
        w.delete(l.path(), l.pos(), table.spec(), l.partition());
      }
    }
    return writer.result().deleteFiles();
  }

  private static final StructLike NO_PARTITION = new StructLike() {
    @Override public int size() { return 0; }
    @Override public <T> T get(int pos, Class<T> javaClass) { return null; }
    @Override public <T> void set(int pos, T value) {}
  };
}
