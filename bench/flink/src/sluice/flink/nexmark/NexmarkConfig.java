package sluice.flink.nexmark;

/**
 * The settings of the Nexmark generator that affect the events, with the defaults of Sluice's
 * 'nexmark' connector (src/connectors/nexmark/nexmark_generator.h): the same option keys give the
 * same configuration on both engines.
 */
public final class NexmarkConfig implements java.io.Serializable {
  private static final long serialVersionUID = 1L;

  /** 2026-01-01 00:00:00 UTC: Sluice's fixed base time, so runs repeat. */
  public static final long DEFAULT_BASE_TIME_MS = 1767225600000L;

  public long numEvents = 0;
  public long stopAt = -1;
  public int firstEventRate = 10000;
  public int nextEventRate = 10000;
  public int numEventGenerators = 1;
  public int personProportion = 1;
  public int auctionProportion = 3;
  public int bidProportion = 46;
  public int avgPersonByteSize = 200;
  public int avgAuctionByteSize = 500;
  public int avgBidByteSize = 100;
  public int hotAuctionRatio = 2;
  public int hotSellersRatio = 4;
  public int hotBiddersRatio = 4;
  public int numInFlightAuctions = 100;
  public int numActivePeople = 1000;
  public long baseTimeMs = DEFAULT_BASE_TIME_MS;
  public long seed = 0;

  public int totalProportion() {
    return personProportion + auctionProportion + bidProportion;
  }

  /** Microseconds between two events' timestamps. */
  public double interEventDelayUs() {
    return 1000000.0 / firstEventRate * numEventGenerators;
  }

  /** The number of events: 'events.num' (0: practically unbounded), capped by 'stop-at'. */
  public long maxEvents() {
    long max = numEvents;
    if (max == 0) {
      long biggest = Math.max(Math.max(avgPersonByteSize, avgAuctionByteSize), Math.max(avgBidByteSize, 1));
      max = Long.MAX_VALUE / ((long) totalProportion() * biggest);
    }
    return stopAt < 0 ? max : Math.min(stopAt, max);
  }

  /** Event time (ms) of the event with number eventNumber (the first is 1). */
  public long timestampForEvent(long eventNumber) {
    return baseTimeMs + (long) (eventNumber * interEventDelayUs()) / 1000;
  }

  public long lastBase0PersonId(long eventId) {
    long epoch = eventId / totalProportion();
    long offset = eventId % totalProportion();
    if (offset >= personProportion) offset = personProportion - 1;
    return epoch * personProportion + offset;
  }

  public long lastBase0AuctionId(long eventId) {
    long epoch = eventId / totalProportion();
    long offset = eventId % totalProportion();
    if (offset < personProportion) {
      epoch--;
      offset = auctionProportion - 1;
    } else if (offset >= personProportion + auctionProportion) {
      offset = auctionProportion - 1;
    } else {
      offset -= personProportion;
    }
    return epoch * auctionProportion + offset;
  }
}
