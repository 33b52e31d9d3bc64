-- The seed's design drill (an OVER window per device: distinct cards over the last 10 minutes, one
-- exact value per event) on Nexmark's bid stream: auctions stand in for devices and bidders for
-- cards. Run after the shared DDL:
--   build-release/sluice run -i bench/nexmark/ddl.sql bench/nexmark/over_drill.sql
-- 'first-event.rate' 100000: 10M events span 100 s of event time, so the frame is 10 seconds here.

ALTER TABLE datagen SET ('first-event.rate' = '100000', 'next-event.rate' = '100000');

CREATE TABLE over_drill (
  auction BIGINT,
  bidder BIGINT,
  distinct_bidders BIGINT
) WITH (
  'connector' = 'blackhole'
);

INSERT INTO over_drill
SELECT auction, bidder,
  COUNT(DISTINCT bidder) OVER (PARTITION BY auction ORDER BY `dateTime`
    RANGE BETWEEN INTERVAL '10' SECOND PRECEDING AND CURRENT ROW)
FROM bid;
