-- Nexmark q13 (nexmark/nexmark, nexmark-flink/src/main/resources/queries/q13.sql), after the shared DDL:
--   build-release/sluice run -i bench/nexmark/ddl.sql bench/nexmark/q13.sql
-- The side input is the file Nexmark's SideInputGenerator writes (10000 lines "i,i"); bench/run.sh
-- writes it to /tmp/sluice-nexmark-side-input.csv before the queries run. The table uses the
-- 'filesystem' connector's current options instead of the legacy 'connector.type' ones. As the other
-- windowed and joined queries of issue 4, the generator runs at 'first-event.rate' 100000.

ALTER TABLE datagen SET ('first-event.rate' = '100000', 'next-event.rate' = '100000');

-- -------------------------------------------------------------------------------------------------
-- Query 13: Bounded Side Input Join (Not in original suite)
-- -------------------------------------------------------------------------------------------------
-- Joins a stream to a bounded side input, modeling basic stream enrichment.
-- -------------------------------------------------------------------------------------------------

CREATE TABLE side_input (
  key BIGINT,
  `value` VARCHAR
) WITH (
  'connector' = 'filesystem',
  'path' = '/tmp/sluice-nexmark-side-input.csv',
  'format' = 'csv'
);

CREATE TABLE nexmark_q13 (
  auction  BIGINT,
  bidder  BIGINT,
  price  BIGINT,
  `dateTime`  TIMESTAMP(3),
  `value`  VARCHAR
) WITH (
  'connector' = 'blackhole'
);

INSERT INTO nexmark_q13
SELECT
    B.auction,
    B.bidder,
    B.price,
    B.`dateTime`,
    S.`value`
FROM (SELECT *, PROCTIME() as p_time FROM bid) B
JOIN side_input FOR SYSTEM_TIME AS OF B.p_time AS S
ON mod(B.auction, 10000) = S.key;
