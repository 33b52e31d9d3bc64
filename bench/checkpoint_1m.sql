-- Snapshot time and size for 1M keys of state (issue 5): a group aggregation over 1,000,000 distinct
-- keys; the job's final checkpoint holds all of them. bench/run.sh reads the checkpoint figures from
-- the job summary (checkpoints=1(last=<bytes>B, avg=<ms>ms, ...)). Run with
--   sluice run --set state.checkpoints.dir=/tmp/ckpt bench/checkpoint_1m.sql
CREATE TABLE keys_src (k BIGINT, v BIGINT) WITH (
  'connector' = 'datagen',
  'number-of-rows' = '1000000', 'rows-per-second' = '1000000000',
  'fields.k.kind' = 'sequence', 'fields.k.start' = '1', 'fields.k.end' = '1000000',
  'fields.v.min' = '1', 'fields.v.max' = '1000'
);
CREATE TABLE keys_sink (k BIGINT, c BIGINT, s BIGINT, m BIGINT) WITH ('connector' = 'blackhole');
INSERT INTO keys_sink SELECT k, COUNT(*), SUM(v), MAX(v) FROM keys_src GROUP BY k;
