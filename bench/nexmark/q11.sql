-- Nexmark q11 (nexmark/nexmark, nexmark-flink/src/main/resources/queries/q11.sql), after the shared DDL:
--   build-release/sluice run -i bench/nexmark/ddl.sql bench/nexmark/q11.sql
-- As issue 4's benchmark asks, 'first-event.rate' and 'next-event.rate' are 100000: events are 10 us
-- apart in event time, so 10M events span 100 s of event time and windows fire as the run goes.

ALTER TABLE datagen SET ('first-event.rate' = '100000', 'next-event.rate' = '100000');

-- -------------------------------------------------------------------------------------------------
-- Query 11: User Sessions
-- -------------------------------------------------------------------------------------------------
-- How many bids did a user make in each session they were active? Illustrates session windows.
--
-- Group bids by the same user into sessions with max session gap.
-- Emit the number of bids per session.
-- -------------------------------------------------------------------------------------------------

CREATE TABLE nexmark_q11 (
  bidder BIGINT,
  bid_count BIGINT,
  starttime TIMESTAMP(3),
  endtime TIMESTAMP(3)
) WITH (
  'connector' = 'blackhole'
);

INSERT INTO nexmark_q11
SELECT
    B.bidder,
    count(*) as bid_count,
    SESSION_START(B.`dateTime`, INTERVAL '10' SECOND) as starttime,
    SESSION_END(B.`dateTime`, INTERVAL '10' SECOND) as endtime
FROM bid B
GROUP BY B.bidder, SESSION(B.`dateTime`, INTERVAL '10' SECOND);
