// The Java reference (iceberg-core/-data/-parquet) as an independent reader: reads one Iceberg table with
// IcebergGenerics, every delete applied (equality, position, deletion vectors), and prints one JSON line
// per row in Sluice's jsonl conventions (IcebergJson), sorted, so two readers' outputs compare as text.
//
//   IcebergReadTable (--table DIR | --warehouse DIR --name db.t | --metadata FILE)
//                    [--snapshot-id ID] [--snapshots] [--remap PREFIX=DIR]...
//
// --table loads a path-based table (HadoopTables; DIR/metadata/version-hint.text), --warehouse/--name a
// table of a hadoop catalog, --metadata one metadata file (StaticTableOperations). --snapshot-id reads
// that snapshot instead of the current one. --snapshots first prints, per snapshot in commit order, a line
// "#snapshot {"snapshot-id":...,"sequence-number":...,"operation":...,"summary":{...}}". --remap reads
// every file whose location starts with PREFIX from DIR instead (tables copied from elsewhere).
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StaticTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.hadoop.HadoopFileIO;
import org.apache.iceberg.hadoop.HadoopTables;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;

public final class IcebergReadTable {
  /** HadoopFileIO that reads files under other prefixes from local copies. */
  static final class RemappingFileIO implements FileIO {
    private final FileIO base;
    private final Map<String, String> remap;

    RemappingFileIO(FileIO base, Map<String, String> remap) {
      this.base = base;
      this.remap = remap;
    }

    private String local(String path) {
      for (Map.Entry<String, String> e : remap.entrySet()) {
        if (path.startsWith(e.getKey())) return e.getValue() + path.substring(e.getKey().length());
      }
      return path;
    }

    @Override
    public InputFile newInputFile(String path) {
      InputFile in = base.newInputFile(local(path));
      return new InputFile() {
        @Override public long getLength() { return in.getLength(); }
        @Override public org.apache.iceberg.io.SeekableInputStream newStream() { return in.newStream(); }
        @Override public String location() { return path; }
        @Override public boolean exists() { return in.exists(); }
      };
    }

    @Override public OutputFile newOutputFile(String path) { return base.newOutputFile(local(path)); }
    @Override public void deleteFile(String path) { base.deleteFile(local(path)); }
  }

  public static void main(String[] args) throws Exception {
    String tableDir = null, warehouse = null, name = null, metadata = null;
    Long snapshotId = null;
    boolean snapshots = false;
    Map<String, String> remap = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--table" -> tableDir = args[++i];
        case "--warehouse" -> warehouse = args[++i];
        case "--name" -> name = args[++i];
        case "--metadata" -> metadata = args[++i];
        case "--snapshot-id" -> snapshotId = Long.parseLong(args[++i]);
        case "--snapshots" -> snapshots = true;
        case "--remap" -> {
          String[] kv = args[++i].split("=", 2);
          remap.put(kv[0], kv[1]);
        }
        default -> {
          System.err.println("IcebergReadTable: unknown argument " + args[i]);
          System.exit(2);
        }
      }
    }
    Configuration conf = new Configuration();
    Table table;
    if (metadata != null) {
      FileIO io = new HadoopFileIO(conf);
      if (!remap.isEmpty()) io = new RemappingFileIO(io, remap);
      table = new BaseTable(new StaticTableOperations(metadata, io), metadata);
    } else if (tableDir != null) {
      table = new HadoopTables(conf).load(tableDir);
    } else if (warehouse != null && name != null) {
      HadoopCatalog catalog = new HadoopCatalog(conf, warehouse);
      table = catalog.loadTable(TableIdentifier.parse(name));
    } else {
      System.err.println("IcebergReadTable: give --table DIR, --warehouse DIR --name db.t, or --metadata FILE");
      System.exit(2);
      return;
    }
    StringBuilder out = new StringBuilder();
    if (snapshots) {
      List<Snapshot> all = new ArrayList<>();
      table.snapshots().forEach(all::add);
      all.sort((a, b) -> Long.compare(a.sequenceNumber(), b.sequenceNumber()) != 0
          ? Long.compare(a.sequenceNumber(), b.sequenceNumber()) : Long.compare(a.timestampMillis(), b.timestampMillis()));
      for (Snapshot s : all) out.append("#snapshot ").append(IcebergJson.summary(s)).append('\n');
    }
    IcebergGenerics.ScanBuilder scan = IcebergGenerics.read(table);
    Schema schema = table.schema();
    if (snapshotId != null) {
      scan = scan.useSnapshot(snapshotId);
      schema = table.schemas().get(table.snapshot(snapshotId).schemaId());
    }
    List<String> rows = new ArrayList<>();
    if (table.currentSnapshot() != null || snapshotId != null) {
      try (CloseableIterable<Record> records = scan.build()) {
        for (Record r : records) rows.add(IcebergJson.row(schema, r));
      }
    }
    for (String row : IcebergJson.sorted(rows)) out.append(row).append('\n');
    System.out.print(out);
  }
}
