package sluice.flink.nexmark;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.apache.flink.configuration.MemorySize;

/**
 * The options of Sluice's 'nexmark' connector (src/connectors/nexmark/nexmark_connector.cc: the keys
 * of the nexmark-flink connector plus 'sluice.seed' and 'sluice.base-time'), parsed into a
 * NexmarkConfig.
 */
public final class NexmarkOptions {
  public static final List<String> KEYS = List.of("first-event.rate", "next-event.rate", "events.num",
      "person.proportion", "auction.proportion", "bid.proportion", "bid.hot-ratio.auctions", "bid.hot-ratio.bidders",
      "auction.hot-ratio.sellers", "person.avg-size", "auction.avg-size", "bid.avg-size", "rate.shape", "rate.period",
      "rate.limited", "keep-alive", "stop-at", "max-emit-speed", "sluice.seed", "sluice.base-time");

  private NexmarkOptions() {}

  public static NexmarkConfig parse(Map<String, String> options) {
    NexmarkConfig c = new NexmarkConfig();
    c.firstEventRate = intOpt(options, "first-event.rate", c.firstEventRate, 1);
    c.nextEventRate = intOpt(options, "next-event.rate", c.nextEventRate, 1);
    c.personProportion = intOpt(options, "person.proportion", c.personProportion, 0);
    c.auctionProportion = intOpt(options, "auction.proportion", c.auctionProportion, 0);
    c.bidProportion = intOpt(options, "bid.proportion", c.bidProportion, 0);
    c.hotAuctionRatio = intOpt(options, "bid.hot-ratio.auctions", c.hotAuctionRatio, 1);
    c.hotBiddersRatio = intOpt(options, "bid.hot-ratio.bidders", c.hotBiddersRatio, 1);
    c.hotSellersRatio = intOpt(options, "auction.hot-ratio.sellers", c.hotSellersRatio, 1);
    c.avgPersonByteSize = sizeOpt(options, "person.avg-size", c.avgPersonByteSize);
    c.avgAuctionByteSize = sizeOpt(options, "auction.avg-size", c.avgAuctionByteSize);
    c.avgBidByteSize = sizeOpt(options, "bid.avg-size", c.avgBidByteSize);
    if (c.totalProportion() < 1) {
      throw new IllegalArgumentException("Option 'bid.proportion': the person, auction and bid proportions must add up to at least 1");
    }
    c.numEvents = longOpt(options, "events.num", 0, 0);
    c.stopAt = longOpt(options, "stop-at", -1, -1);
    c.seed = longOpt(options, "sluice.seed", 0, Long.MIN_VALUE);
    String base = options.get("sluice.base-time");
    if (base != null) c.baseTimeMs = parseBaseTime(base.trim());
    return c;
  }

  public static boolean maxEmitSpeed(Map<String, String> options) {
    return !"false".equalsIgnoreCase(options.getOrDefault("max-emit-speed", "true").trim());
  }

  private static long parseBaseTime(String text) {
    try {
      return Long.parseLong(text);
    } catch (NumberFormatException e) {
      // falls through to the timestamp form
    }
    String pattern = text.contains(".") ? "yyyy-MM-dd HH:mm:ss.SSS" : "yyyy-MM-dd HH:mm:ss";
    try {
      return LocalDateTime.parse(text, DateTimeFormatter.ofPattern(pattern, Locale.ROOT)).toInstant(ZoneOffset.UTC).toEpochMilli();
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException("Option 'sluice.base-time': '" + text
          + "' is neither epoch milliseconds nor a 'yyyy-MM-dd HH:mm:ss' timestamp");
    }
  }

  private static long longOpt(Map<String, String> options, String key, long dflt, long min) {
    String v = options.get(key);
    if (v == null) return dflt;
    long x;
    try {
      x = Long.parseLong(v.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("Option '" + key + "': '" + v + "' is not an integer");
    }
    if (x < min) throw new IllegalArgumentException("Option '" + key + "': " + x + " is below " + min);
    return x;
  }

  private static int intOpt(Map<String, String> options, String key, int dflt, int min) {
    long x = longOpt(options, key, dflt, min);
    if (x > Integer.MAX_VALUE) throw new IllegalArgumentException("Option '" + key + "': " + x + " is too large");
    return (int) x;
  }

  private static int sizeOpt(Map<String, String> options, String key, int dflt) {
    String v = options.get(key);
    if (v == null) return dflt;
    long bytes = MemorySize.parse(v.trim()).getBytes();
    if (bytes > Integer.MAX_VALUE) throw new IllegalArgumentException("Option '" + key + "': '" + v + "' is larger than 2 GiB");
    return (int) bytes;
  }
}
