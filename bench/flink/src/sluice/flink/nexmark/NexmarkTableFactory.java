package sluice.flink.nexmark;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.connector.source.SourceProvider;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.factories.DynamicTableSourceFactory;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;

/**
 * The 'nexmark' connector for Flink with the options of Sluice's (NexmarkOptions): a bounded scan
 * source (when 'events.num' or 'stop-at' is set) of the Java NexmarkGenerator's events, with the
 * columns event_type INT and person / auction / bid ROWs of any of their fields in any order, as
 * Sluice accepts them. It runs at parallelism 1 (one generator, one sequence of events); the events
 * are produced by flink-connector-datagen's DataGeneratorSource calling the generator once per
 * index, in order.
 */
public final class NexmarkTableFactory implements DynamicTableSourceFactory {
  private static final String[][] FIELDS = {
      {"id", "name", "emailAddress", "creditCard", "city", "state", "dateTime", "extra"},
      {"id", "itemName", "description", "initialBid", "reserve", "dateTime", "expires", "seller", "category", "extra"},
      {"auction", "bidder", "price", "channel", "url", "dateTime", "extra"}};
  private static final String[] RECORDS = {"person", "auction", "bid"};

  @Override
  public String factoryIdentifier() {
    return "nexmark";
  }

  @Override
  public Set<ConfigOption<?>> requiredOptions() {
    return Set.of();
  }

  @Override
  public Set<ConfigOption<?>> optionalOptions() {
    Set<ConfigOption<?>> options = new HashSet<>();
    for (String key : NexmarkOptions.KEYS) options.add(ConfigOptions.key(key).stringType().noDefaultValue());
    return options;
  }

  @Override
  public DynamicTableSource createDynamicTableSource(Context context) {
    FactoryUtil.createTableFactoryHelper(this, context).validate();
    Map<String, String> options = context.getCatalogTable().getOptions();
    NexmarkConfig config;
    try {
      config = NexmarkOptions.parse(options);
    } catch (IllegalArgumentException e) {
      throw new ValidationException("Table '" + context.getObjectIdentifier() + "': " + e.getMessage(), e);
    }
    DataType physical = context.getPhysicalRowDataType();
    RowType rowType = (RowType) physical.getLogicalType();
    int[][] layout = new int[rowType.getFieldCount()][];
    for (int c = 0; c < layout.length; c++) layout[c] = columnLayout(rowType.getFieldNames().get(c), rowType.getTypeAt(c));
    return new Source(config, NexmarkOptions.maxEmitSpeed(options), physical, layout);
  }

  /** {-1} for event_type; else {record, field index of each ROW field in DDL order...}. */
  private static int[] columnLayout(String name, LogicalType type) {
    if (name.equals("event_type")) return new int[] {-1};
    for (int k = 0; k < RECORDS.length; k++) {
      if (!RECORDS[k].equals(name)) continue;
      if (type.getTypeRoot() != LogicalTypeRoot.ROW) throw new ValidationException("Column '" + name + "' must be a ROW");
      List<String> names = ((RowType) type).getFieldNames();
      int[] out = new int[names.size() + 1];
      out[0] = k;
      for (int i = 0; i < names.size(); i++) {
        out[i + 1] = List.of(FIELDS[k]).indexOf(names.get(i));
        if (out[i + 1] < 0) throw new ValidationException("Unknown field '" + names.get(i) + "' of a Nexmark " + name);
      }
      return out;
    }
    throw new ValidationException("Column '" + name + "' is not a Nexmark column (expected event_type, person, auction or bid)");
  }

  private static final class Source implements ScanTableSource {
    private final NexmarkConfig config;
    private final boolean maxEmitSpeed;
    private final DataType physical;
    private final int[][] layout;

    Source(NexmarkConfig config, boolean maxEmitSpeed, DataType physical, int[][] layout) {
      this.config = config;
      this.maxEmitSpeed = maxEmitSpeed;
      this.physical = physical;
      this.layout = layout;
    }

    @Override
    public ChangelogMode getChangelogMode() {
      return ChangelogMode.insertOnly();
    }

    @Override
    public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
      RateLimiterStrategy<?> rate = maxEmitSpeed ? RateLimiterStrategy.noOp()
          : RateLimiterStrategy.perSecond(config.firstEventRate);
      DataGeneratorSource<RowData> source = new DataGeneratorSource<>(new Events(config, layout), config.maxEvents(),
          rate, context.createTypeInformation(physical));
      return SourceProvider.of(source, 1);
    }

    @Override
    public DynamicTableSource copy() {
      return new Source(config, maxEmitSpeed, physical, layout);
    }

    @Override
    public String asSummaryString() {
      return "nexmark";
    }
  }

  /** index -> the next event as a row of the table's columns (indexes arrive in order at parallelism 1). */
  private static final class Events implements GeneratorFunction<Long, RowData> {
    private final NexmarkConfig config;
    private final int[][] layout;
    private transient NexmarkGenerator g;

    Events(NexmarkConfig config, int[][] layout) {
      this.config = config;
      this.layout = layout;
    }

    @Override
    public RowData map(Long index) {
      if (g == null) g = new NexmarkGenerator(config);
      g.next();
      GenericRowData row = new GenericRowData(layout.length);
      for (int c = 0; c < layout.length; c++) {
        int[] l = layout[c];
        if (l[0] == -1) {
          row.setField(c, g.type);
        } else if (l[0] == g.type) {
          GenericRowData rec = new GenericRowData(l.length - 1);
          for (int i = 1; i < l.length; i++) rec.setField(i - 1, field(g.type, l[i]));
          row.setField(c, rec);
        }
      }
      return row;
    }

    private Object field(int type, int f) {
      switch (type) {
        case NexmarkGenerator.PERSON:
          switch (f) {
            case 0: return g.personId;
            case 1: return StringData.fromString(g.name);
            case 2: return StringData.fromString(g.emailAddress);
            case 3: return StringData.fromString(g.creditCard);
            case 4: return StringData.fromString(g.city);
            case 5: return StringData.fromString(g.state);
            case 6: return TimestampData.fromEpochMillis(g.dateTimeMs);
            default: return StringData.fromString(g.extra);
          }
        case NexmarkGenerator.AUCTION:
          switch (f) {
            case 0: return g.auctionId;
            case 1: return StringData.fromString(g.itemName);
            case 2: return StringData.fromString(g.description);
            case 3: return g.initialBid;
            case 4: return g.reserve;
            case 5: return TimestampData.fromEpochMillis(g.dateTimeMs);
            case 6: return TimestampData.fromEpochMillis(g.expiresMs);
            case 7: return g.seller;
            case 8: return g.category;
            default: return StringData.fromString(g.extra);
          }
        default:
          switch (f) {
            case 0: return g.auction;
            case 1: return g.bidder;
            case 2: return g.price;
            case 3: return StringData.fromString(g.channel);
            case 4: return StringData.fromString(g.url);
            case 5: return TimestampData.fromEpochMillis(g.dateTimeMs);
            default: return StringData.fromString(g.extra);
          }
      }
    }
  }
}
