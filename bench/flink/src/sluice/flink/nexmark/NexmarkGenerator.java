package sluice.flink.nexmark;

import java.util.SplittableRandom;

/**
 * The Nexmark event generator, written from the same specification as Sluice's C++ generator
 * (src/connectors/nexmark/nexmark_generator.h describes the model): the nexmark/nexmark repository's
 * generator (GeneratorConfig, the person, auction and bid generators and StringsGenerator), every
 * random decision drawn in the same order from java.util.SplittableRandom(seed). As in Sluice, the
 * process-wide tables the reference generator fills from unseeded generators (the 1 MiB text the
 * 'extra' fields are cut from, the bid channel/URL table) are seeded with seed + 1 and seed + 2, so
 * the same options give the same events on both engines (bench/flink/same_events.sh checks it).
 *
 * next() fills the public fields of this object with the next event (only the record of its type);
 * one generator is used by one thread.
 */
public final class NexmarkGenerator {
  public static final int PERSON = 0;
  public static final int AUCTION = 1;
  public static final int BID = 2;

  private static final long FIRST_AUCTION_ID = 1000;
  private static final long FIRST_PERSON_ID = 1000;
  private static final long FIRST_CATEGORY_ID = 10;
  private static final int NUM_CATEGORIES = 5;
  private static final int PERSON_ID_LEAD = 10;
  private static final int AUCTION_ID_LEAD = 10;
  private static final long HOT_SELLER_BATCH = 100;
  private static final long HOT_AUCTION_BATCH = 100;
  private static final long HOT_BIDDER_BATCH = 100;
  private static final int HOT_CHANNELS_RATIO = 2;
  private static final int CHANNELS_NUMBER = 10000;
  private static final int MIN_STRING_LENGTH = 3;
  private static final int REUSABLE_EXTRA_LENGTH = 1024 * 1024;

  private static final String[] HOT_CHANNELS = {"Google", "Facebook", "Baidu", "Apple"};
  private static final String[] US_STATES = {"AZ", "CA", "ID", "OR", "WA", "WY"};
  private static final String[] US_CITIES = {"Phoenix", "Los Angeles", "San Francisco", "Boise", "Portland", "Bend",
      "Redmond", "Seattle", "Kent", "Cheyenne"};
  private static final String[] FIRST_NAMES = {"Peter", "Paul", "Luke", "John", "Saul", "Vicky", "Kate", "Julie",
      "Sarah", "Deiter", "Walter"};
  private static final String[] LAST_NAMES = {"Shultz", "Abrams", "Spencer", "White", "Bartels", "Walton", "Smith",
      "Jones", "Noris"};

  // The event last generated.
  public int type;
  public long dateTimeMs;
  // person
  public long personId;
  public String name;
  public String emailAddress;
  public String creditCard;
  public String city;
  public String state;
  // auction
  public long auctionId;
  public String itemName;
  public String description;
  public long initialBid;
  public long reserve;
  public long expiresMs;
  public long seller;
  public long category;
  // bid
  public long auction;
  public long bidder;
  public long price;
  public String channel;
  public String url;
  // the extra of the event's record
  public String extra;

  private final NexmarkConfig config;
  private final SplittableRandom random;
  private final long maxEvents;
  private long eventsSoFar = 0;
  private final String extraText;
  private final String[] hotUrls = new String[4];
  private final String[] channels = new String[CHANNELS_NUMBER];
  private final String[] urls = new String[CHANNELS_NUMBER];
  private final char[] buf = new char[128];

  public NexmarkGenerator(NexmarkConfig config) {
    this.config = config;
    this.random = new SplittableRandom(config.seed);
    this.maxEvents = config.maxEvents();
    SplittableRandom extraRandom = new SplittableRandom(config.seed + 1);
    char[] text = new char[REUSABLE_EXTRA_LENGTH];
    exactString(extraRandom, text, REUSABLE_EXTRA_LENGTH);
    extraText = new String(text);
    SplittableRandom bidRandom = new SplittableRandom(config.seed + 2);
    for (int i = 0; i < 4; i++) hotUrls[i] = baseUrl(bidRandom);
    for (int i = 0; i < CHANNELS_NUMBER; i++) {
      String u = baseUrl(bidRandom);
      if (bidRandom.nextInt(10) > 0) u = u + "&channel_id=" + Math.abs(Integer.reverse(i));
      urls[i] = u;
      channels[i] = "channel-" + i;
    }
  }

  public boolean hasNext() {
    return eventsSoFar < maxEvents;
  }

  public long eventsSoFar() {
    return eventsSoFar;
  }

  /** Generates the next event into this object's fields. */
  public void next() {
    long eventNumber = 1 + eventsSoFar;  // the first event number is 1
    long eventId = 1 + eventNumber;      // the first event id is 1
    dateTimeMs = config.timestampForEvent(eventNumber);
    long rem = eventId % config.totalProportion();
    if (rem < config.personProportion) {
      type = PERSON;
      nextPerson(eventId);
    } else if (rem < config.personProportion + config.auctionProportion) {
      type = AUCTION;
      nextAuction(eventId, eventNumber);
    } else {
      type = BID;
      nextBid(eventId);
    }
    eventsSoFar++;
  }

  private void nextPerson(long eventId) {
    personId = config.lastBase0PersonId(eventId) + FIRST_PERSON_ID;
    int first = random.nextInt(FIRST_NAMES.length);
    int last = random.nextInt(LAST_NAMES.length);
    name = FIRST_NAMES[first] + " " + LAST_NAMES[last];
    emailAddress = nextString(random, 7, ' ') + "@" + nextString(random, 5, ' ') + ".com";
    StringBuilder card = new StringBuilder(19);
    for (int i = 0; i < 4; i++) {
      if (i > 0) card.append(' ');
      int v = random.nextInt(10000);
      card.append((char) ('0' + v / 1000)).append((char) ('0' + v / 100 % 10))
          .append((char) ('0' + v / 10 % 10)).append((char) ('0' + v % 10));
    }
    creditCard = card.toString();
    city = US_CITIES[random.nextInt(US_CITIES.length)];
    state = US_STATES[random.nextInt(US_STATES.length)];
    int currentSize = 8 + name.length() + emailAddress.length() + creditCard.length() + city.length() + state.length();
    extra = nextExtra(currentSize, config.avgPersonByteSize);
  }

  private void nextAuction(long eventId, long eventNumber) {
    auctionId = config.lastBase0AuctionId(eventId) + FIRST_AUCTION_ID;
    long s;
    if (random.nextInt(config.hotSellersRatio) > 0) {
      s = (config.lastBase0PersonId(eventId) / HOT_SELLER_BATCH) * HOT_SELLER_BATCH;
    } else {
      s = nextBase0PersonId(eventId);
    }
    seller = s + FIRST_PERSON_ID;
    category = FIRST_CATEGORY_ID + random.nextInt(NUM_CATEGORIES);
    initialBid = nextPrice();
    // The auction stays open about as long as it takes numInFlightAuctions more auctions to come.
    long eventsForAuctions = ((long) config.numInFlightAuctions * config.totalProportion()) / config.auctionProportion;
    long futureAuction = config.timestampForEvent(eventNumber + eventsForAuctions);
    long horizonMs = futureAuction - dateTimeMs;
    expiresMs = dateTimeMs + 1 + nextLong(Math.max(horizonMs * 2, 1));
    itemName = nextString(random, 20, ' ');
    description = nextString(random, 100, ' ');
    reserve = initialBid + nextPrice();
    int currentSize = 8 + itemName.length() + description.length() + 8 + 8 + 8 + 8 + 8;
    extra = nextExtra(currentSize, config.avgAuctionByteSize);
  }

  private void nextBid(long eventId) {
    long a;
    if (random.nextInt(config.hotAuctionRatio) > 0) {
      a = (config.lastBase0AuctionId(eventId) / HOT_AUCTION_BATCH) * HOT_AUCTION_BATCH;
    } else {
      a = nextBase0AuctionId(eventId);
    }
    auction = a + FIRST_AUCTION_ID;
    long b;
    if (random.nextInt(config.hotBiddersRatio) > 0) {
      b = (config.lastBase0PersonId(eventId) / HOT_BIDDER_BATCH) * HOT_BIDDER_BATCH + 1;
    } else {
      b = nextBase0PersonId(eventId);
    }
    price = nextPrice();
    if (random.nextInt(HOT_CHANNELS_RATIO) > 0) {
      int i = random.nextInt(HOT_CHANNELS.length);
      channel = HOT_CHANNELS[i];
      url = hotUrls[i];
    } else {
      int i = random.nextInt(CHANNELS_NUMBER);
      channel = channels[i];
      url = urls[i];
    }
    // The reference bid generator adds the first person id twice.
    bidder = b + FIRST_PERSON_ID + FIRST_PERSON_ID;
    extra = nextExtra(8 + 8 + 8 + 8, config.avgBidByteSize);
  }

  private long nextLong(long n) {
    if (n < Integer.MAX_VALUE) return random.nextInt((int) n);
    return Math.abs(random.nextLong() % n);
  }

  private long nextPrice() {
    return Math.round(Math.pow(10.0, random.nextDouble() * 6.0) * 100.0);
  }

  private long nextBase0PersonId(long eventId) {
    long numPeople = config.lastBase0PersonId(eventId) + 1;
    long activePeople = Math.min(numPeople, config.numActivePeople);
    long n = nextLong(activePeople + PERSON_ID_LEAD);
    return numPeople - activePeople + n;
  }

  private long nextBase0AuctionId(long eventId) {
    long maxAuction = config.lastBase0AuctionId(eventId);
    long minAuction = Math.max(maxAuction - config.numInFlightAuctions, 0);
    return minAuction + nextLong(maxAuction - minAuction + 1 + AUCTION_ID_LEAD);
  }

  /** A string of 3 to maxLength - 1 letters with 'special' at about one in 13, trimmed. */
  private String nextString(SplittableRandom r, int maxLength, char special) {
    int len = MIN_STRING_LENGTH + r.nextInt(maxLength - MIN_STRING_LENGTH);
    for (int i = 0; i < len; i++) buf[i] = r.nextInt(13) == 0 ? special : (char) ('a' + r.nextInt(26));
    return new String(buf, 0, len).trim();
  }

  /** Six characters per random int: 'a' + (r % 26) with Java's signed remainder, then r / 26. */
  private static void exactString(SplittableRandom r, char[] out, int length) {
    int rnd = 0;
    int n = 0;
    for (int i = 0; i < length; i++) {
      if (n == 0) {
        rnd = r.nextInt();
        n = 6;
      }
      out[i] = (char) ('a' + rnd % 26);
      rnd /= 26;
      n--;
    }
  }

  private String nextExtra(int currentSize, int desiredAverageSize) {
    if (currentSize > desiredAverageSize) return "";
    int desired = desiredAverageSize - currentSize;
    int delta = (int) Math.round(desired * 0.2);
    int minSize = desired - delta;
    int size = minSize + (delta == 0 ? 0 : random.nextInt(2 * delta));
    if (size < extraText.length() / 2) {
      int offset = random.nextInt(extraText.length() - size);
      return extraText.substring(offset, offset + size);
    }
    char[] out = new char[size];
    exactString(random, out, size);
    return new String(out);
  }

  private String baseUrl(SplittableRandom r) {
    return "https://www.nexmark.com/" + nextString(r, 5, '_') + "/" + nextString(r, 5, '_') + "/"
        + nextString(r, 5, '_') + "/item.htm?query=1";
  }
}
