package sluice.flink.nexmark;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Prints the first N events of the Java Nexmark generator in the text form Sluice's
 * `nexmark_events` tool prints for its C++ generator (bench/nexmark/nexmark_events.cc), one line per
 * event, so `| sha256sum` on both sides proves they generate the same events
 * (bench/flink/same_events.sh):
 *
 *   0 \t id \t name \t emailAddress \t creditCard \t city \t state \t dateTime \t extra          (person)
 *   1 \t id \t itemName \t description \t initialBid \t reserve \t dateTime \t expires \t seller \t category \t extra
 *   2 \t auction \t bidder \t price \t channel \t url \t dateTime \t extra                        (bid)
 *
 * with timestamps as 'yyyy-MM-dd HH:mm:ss.SSS' (UTC).
 *
 *   java -cp ... sluice.flink.nexmark.NexmarkEvents N [key=value ...]   (connector options)
 */
public final class NexmarkEvents {
  private NexmarkEvents() {}

  public static void main(String[] args) throws IOException {
    long n = Long.parseLong(args[0]);
    Map<String, String> options = new LinkedHashMap<>();
    for (int i = 1; i < args.length; i++) {
      int eq = args[i].indexOf('=');
      options.put(args[i].substring(0, eq), args[i].substring(eq + 1));
    }
    options.putIfAbsent("events.num", Long.toString(n));
    NexmarkGenerator g = new NexmarkGenerator(NexmarkOptions.parse(options));
    OutputStream out = new BufferedOutputStream(System.out, 1 << 20);
    StringBuilder line = new StringBuilder(1024);
    for (long i = 0; i < n && g.hasNext(); i++) {
      g.next();
      line.setLength(0);
      line.append(g.type);
      switch (g.type) {
        case NexmarkGenerator.PERSON:
          tab(line).append(g.personId);
          tab(line).append(g.name);
          tab(line).append(g.emailAddress);
          tab(line).append(g.creditCard);
          tab(line).append(g.city);
          tab(line).append(g.state);
          timestamp(tab(line), g.dateTimeMs);
          break;
        case NexmarkGenerator.AUCTION:
          tab(line).append(g.auctionId);
          tab(line).append(g.itemName);
          tab(line).append(g.description);
          tab(line).append(g.initialBid);
          tab(line).append(g.reserve);
          timestamp(tab(line), g.dateTimeMs);
          timestamp(tab(line), g.expiresMs);
          tab(line).append(g.seller);
          tab(line).append(g.category);
          break;
        default:
          tab(line).append(g.auction);
          tab(line).append(g.bidder);
          tab(line).append(g.price);
          tab(line).append(g.channel);
          tab(line).append(g.url);
          timestamp(tab(line), g.dateTimeMs);
          break;
      }
      tab(line).append(g.extra).append('\n');
      out.write(line.toString().getBytes(StandardCharsets.ISO_8859_1));
    }
    out.flush();
  }

  private static StringBuilder tab(StringBuilder sb) {
    return sb.append('\t');
  }

  /** 'yyyy-MM-dd HH:mm:ss.SSS' of epoch milliseconds (UTC). */
  static void timestamp(StringBuilder sb, long ms) {
    long days = Math.floorDiv(ms, 86400000L);
    long msOfDay = Math.floorMod(ms, 86400000L);
    java.time.LocalDate d = java.time.LocalDate.ofEpochDay(days);
    pad(sb, d.getYear(), 4).append('-');
    pad(sb, d.getMonthValue(), 2).append('-');
    pad(sb, d.getDayOfMonth(), 2).append(' ');
    pad(sb, msOfDay / 3600000, 2).append(':');
    pad(sb, msOfDay / 60000 % 60, 2).append(':');
    pad(sb, msOfDay / 1000 % 60, 2).append('.');
    pad(sb, msOfDay % 1000, 3);
  }

  private static StringBuilder pad(StringBuilder sb, long v, int width) {
    String s = Long.toString(v);
    for (int i = s.length(); i < width; i++) sb.append('0');
    return sb.append(s);
  }
}
