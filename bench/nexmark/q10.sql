-- Nexmark q10 (nexmark/nexmark, nexmark-flink/src/main/resources/queries/q10.sql), after the shared DDL:
--   build-release/sluice run -i bench/nexmark/ddl.sql bench/nexmark/q10.sql
-- Nexmark's path 'file://${NEXMARK_DIR}/data/output/${SUBMIT_TIME}/bid/' is a fixed folder here, which
-- the bench runners (bench/run.sh, bench/flink/bench_flink.py) empty before each run: with 10M events
-- it receives about 9.2M bids as CSV (some 700 MB) in partitions dt=<day>/hm=<HH%3Amm>. `dateTime` is
-- quoted, as in the other scripts: Flink 2.2.1's parser refuses it unquoted (Nexmark's text predates that).

-- -------------------------------------------------------------------------------------------------
-- Query 10: Log to File System (Not in original suite)
-- -------------------------------------------------------------------------------------------------
-- Log all events to file system. Illustrates windows streaming data into partitioned file system.
--
-- Every minute, save all events from the last period into partitioned log files.
-- -------------------------------------------------------------------------------------------------

CREATE TABLE nexmark_q10 (
  auction  BIGINT,
  bidder  BIGINT,
  price  BIGINT,
  `dateTime`  TIMESTAMP(3),
  extra  VARCHAR,
  dt STRING,
  hm STRING
) PARTITIONED BY (dt, hm) WITH (
  'connector' = 'filesystem',
  'path' = 'file:///tmp/sluice-nexmark-q10/bid/',
  'format' = 'csv',
  'sink.partition-commit.trigger' = 'partition-time',
  'sink.partition-commit.delay' = '1 min',
  'sink.partition-commit.policy.kind' = 'success-file',
  'partition.time-extractor.timestamp-pattern' = '$dt $hm:00',
  'sink.rolling-policy.rollover-interval' = '1min',
  'sink.rolling-policy.check-interval' = '1min'
);

INSERT INTO nexmark_q10
SELECT auction, bidder, price, `dateTime`, extra, DATE_FORMAT(`dateTime`, 'yyyy-MM-dd'), DATE_FORMAT(`dateTime`, 'HH:mm')
FROM bid;
