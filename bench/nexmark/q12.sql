-- Nexmark q12 (nexmark/nexmark, nexmark-flink/src/main/resources/queries/q12.sql), after the shared DDL:
--   build-release/sluice run -i bench/nexmark/ddl.sql bench/nexmark/q12.sql
-- As issue 4's benchmark asks, 'first-event.rate' and 'next-event.rate' are 100000: events are 10 us
-- apart in event time, so 10M events span 100 s of event time and windows fire as the run goes.

ALTER TABLE datagen SET ('first-event.rate' = '100000', 'next-event.rate' = '100000');

-- -------------------------------------------------------------------------------------------------
-- Query 12: Processing Time Windows
-- -------------------------------------------------------------------------------------------------
-- How many bids does a user make within a fixed processing time limit?
-- Illustrates working in processing time in the Global window, as compared with event time in
-- non-Global windows for all the other queries.
--
-- Group bids by the same user into processing time windows of 10 seconds.
-- Emit the count of bids per window.
-- -------------------------------------------------------------------------------------------------

CREATE TABLE nexmark_q12 (
  bidder BIGINT,
  bid_count BIGINT,
  starttime TIMESTAMP(3),
  endtime TIMESTAMP(3)
) WITH (
  'connector' = 'blackhole'
);

INSERT INTO nexmark_q12
SELECT
    B.bidder,
    count(*) as bid_count,
    TUMBLE_START(B.p_time, INTERVAL '10' SECOND) as starttime,
    TUMBLE_END(B.p_time, INTERVAL '10' SECOND) as endtime
FROM (SELECT *, PROCTIME() as p_time FROM bid) B
GROUP BY B.bidder, TUMBLE(B.p_time, INTERVAL '10' SECOND);
