package sluice.flink;

import java.io.BufferedWriter;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.format.EncodingFormat;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.sink.SinkV2Provider;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.factories.DynamicTableFactory;
import org.apache.flink.table.factories.DynamicTableSinkFactory;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.factories.SerializationFormatFactory;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.SimpleUserCodeClassLoader;
import org.apache.flink.util.UserCodeClassLoader;

/**
 * The runner's collecting sink ('connector' = 'sluice-collect'). FlinkRunner points a 'print',
 * 'blackhole' or 'filesystem' sink table at it for the duration of an INSERT, with the original
 * connector in 'sluice-collect.origin' and the output file in 'sluice-collect.file'. It creates the
 * original connector's sink from the original options and asks it which changes it accepts, so the
 * planner sees the same changelog mode (and refuses the same updating queries) as with the real sink;
 * the rows it receives are appended to the file as jsonl (JsonlRows) instead. For a 'filesystem'
 * table whose format encodes rows one by one (json, csv, ...), each row is also encoded by that
 * format, as the real sink would write it, into the file + ".encoded".
 */
public final class CollectSinkFactory implements DynamicTableSinkFactory {
  static final String IDENTIFIER = "sluice-collect";
  static final String ORIGIN = "sluice-collect.origin";
  static final String FILE = "sluice-collect.file";

  @Override
  public String factoryIdentifier() {
    return IDENTIFIER;
  }

  @Override
  public Set<ConfigOption<?>> requiredOptions() {
    return Collections.emptySet();
  }

  @Override
  public Set<ConfigOption<?>> optionalOptions() {
    return Collections.emptySet();
  }

  @Override
  public DynamicTableSink createDynamicTableSink(Context context) {
    Map<String, String> options = new HashMap<>(context.getCatalogTable().getOptions());
    String origin = options.remove(ORIGIN);
    String file = options.remove(FILE);
    options.put("connector", origin);
    ResolvedCatalogTable original = context.getCatalogTable().copy(options);
    Context originalContext = (Context) Proxy.newProxyInstance(getClass().getClassLoader(),
        new Class<?>[] {Context.class}, (proxy, method, args) -> {
          if (method.getName().equals("getCatalogTable")) return original;
          try {
            return method.invoke(context, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
    DynamicTableSinkFactory factory = FactoryUtil.discoverFactory(
        context.getClassLoader(), DynamicTableSinkFactory.class, origin);
    DynamicTableSink sink = factory.createDynamicTableSink(originalContext);
    EncodingFormat<SerializationSchema<RowData>> encoding = null;
    if (origin.equals("filesystem")) {
      encoding = FactoryUtil.createTableFactoryHelper(factory, originalContext)
          .discoverOptionalEncodingFormat(SerializationFormatFactory.class, FactoryUtil.FORMAT)
          .orElse(null);
    }
    return new CollectTableSink(sink, file, context.getPhysicalRowDataType(), encoding);
  }

  /** Plans as the original sink, writes what it receives as jsonl. */
  static final class CollectTableSink implements DynamicTableSink {
    private final DynamicTableSink original;
    private final String file;
    private final DataType rowType;
    private final EncodingFormat<SerializationSchema<RowData>> encoding;

    CollectTableSink(DynamicTableSink original, String file, DataType rowType,
        EncodingFormat<SerializationSchema<RowData>> encoding) {
      this.original = original;
      this.file = file;
      this.rowType = rowType;
      this.encoding = encoding;
    }

    @Override
    public ChangelogMode getChangelogMode(ChangelogMode requestedMode) {
      return original.getChangelogMode(requestedMode);
    }

    @Override
    public SinkRuntimeProvider getSinkRuntimeProvider(Context context) {
      SerializationSchema<RowData> encoder =
          encoding == null ? null : encoding.createRuntimeEncoder(context, rowType);
      return SinkV2Provider.of(new JsonlSink(file, new JsonlRows((RowType) rowType.getLogicalType()), encoder));
    }

    @Override
    public DynamicTableSink copy() {
      return new CollectTableSink(original.copy(), file, rowType, encoding);
    }

    @Override
    public String asSummaryString() {
      return original.asSummaryString();
    }
  }

  /** Appends every change to one file; the runner runs it at parallelism 1. */
  static final class JsonlSink implements Sink<RowData> {
    private static final long serialVersionUID = 1L;
    private final String file;
    private final JsonlRows rows;
    private final SerializationSchema<RowData> encoder;  // null: no encoded copy

    JsonlSink(String file, JsonlRows rows, SerializationSchema<RowData> encoder) {
      this.file = file;
      this.rows = rows;
      this.encoder = encoder;
    }

    @Override
    public SinkWriter<RowData> createWriter(WriterInitContext context) throws IOException {
      BufferedWriter out = new BufferedWriter(
          new OutputStreamWriter(new FileOutputStream(file, true), StandardCharsets.UTF_8));
      FileOutputStream encoded = encoder == null ? null : new FileOutputStream(file + ".encoded", true);
      if (encoder != null) {
        try {
          encoder.open(new SerializationSchema.InitializationContext() {
            @Override
            public MetricGroup getMetricGroup() {
              return new UnregisteredMetricsGroup();
            }

            @Override
            public UserCodeClassLoader getUserCodeClassLoader() {
              return SimpleUserCodeClassLoader.create(JsonlSink.class.getClassLoader());
            }
          });
        } catch (Exception e) {
          throw new IOException("cannot open the format's encoder", e);
        }
      }
      return new SinkWriter<RowData>() {
        @Override
        public void write(RowData row, Context ctx) throws IOException {
          out.write(rows.line(row));
          out.write('\n');
          if (encoded != null) {
            byte[] bytes = encoder.serialize(row);
            encoded.write(bytes);
            if (bytes.length == 0 || bytes[bytes.length - 1] != '\n') encoded.write('\n');
          }
        }

        @Override
        public void flush(boolean endOfInput) throws IOException {
          out.flush();
          if (encoded != null) encoded.flush();
        }

        @Override
        public void close() throws IOException {
          out.close();
          if (encoded != null) encoded.close();
        }
      };
    }
  }
}
