// Reads Iceberg metadata files with the Java reference implementation's TableMetadataParser and
// prints what it understood, one "key: value" line each, for tests/interop/iceberg_metadata_interop.py
// to compare. Run as a single-file program: java -cp <iceberg-core classpath> IcebergMetadataCheck.java FILE...
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;

public class IcebergMetadataCheck {
  public static void main(String[] args) throws Exception {
    for (String file : args) {
      TableMetadata md = TableMetadataParser.fromJson(file, Files.readString(Path.of(file)));
      System.out.println("file: " + file);
      System.out.println("format-version: " + md.formatVersion());
      System.out.println("uuid: " + md.uuid());
      System.out.println("schema: " + md.schema().asStruct());
      System.out.println("identifier-field-ids: " + md.schema().identifierFieldIds());
      System.out.println("spec: " + md.spec().fields());
      System.out.println("sort-order: " + md.sortOrder().fields());
      System.out.println("properties: " + new java.util.TreeMap<>(md.properties()));
      System.out.println("last-sequence-number: " + md.lastSequenceNumber());
      System.out.println("metadata-log: " + md.previousFiles().size());
      Snapshot s = md.currentSnapshot();
      if (s != null) {
        System.out.println("snapshot: " + s.snapshotId() + " seq " + s.sequenceNumber() + " " + s.operation());
        System.out.println("summary: " + new java.util.TreeMap<>(s.summary()));
        if (md.formatVersion() >= 3) {
          System.out.println("row-lineage: first-row-id " + s.firstRowId() + " added-rows " + s.addedRows()
              + " next-row-id " + md.nextRowId());
        }
      }
      // Java writes it back: the metadata round-trips through the reference writer too.
      TableMetadataParser.fromJson(TableMetadataParser.toJson(md));
    }
  }
}
