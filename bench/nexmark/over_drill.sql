-- The seed's design drill (an OVER window per device: distinct cards over the last 10 minutes, one
-- exact value per event) on Nexmark's bid stream: auctions stand in for devices and bidders for
-- cards. Run after the shared DDL:
--   build-release/sluice run -i bench/nexmark/ddl.sql bench/nexmark/over_drill.sql
-- 'first-event.rate' 100000: 10M events span 100 s of event time, so the frame is 10 seconds here.
--
-- Rows in range: a frame holds 10 s x 100000 events/s x 46/50 (the bid share) = 920000 rows once the
-- stream is past its first 10 s. State per row in range is reported two ways (bench/run.sh):
--  - measured: the job summary's `state_peak=OverAggregate(<bytes>B, rows=<rows>)` is the operator's
--    own count of its state bytes at its peak (frames, DISTINCT counters, partitions, indexes and the
--    rows waiting for the watermark) and the rows its frames held then;
--  - from RSS: (peak_rss of this script - peak_rss of the same pipeline with `CAST(0 AS BIGINT)` in
--    place of the OVER aggregate) / 920000.
-- Both include the ~368000 rows that wait for the DDL's 4 s watermark delay before they can be
-- processed (about 10 of the bytes per row). Measure with:
--   /usr/bin/time -v build-release/sluice run -i bench/nexmark/ddl.sql bench/nexmark/over_drill.sql

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
