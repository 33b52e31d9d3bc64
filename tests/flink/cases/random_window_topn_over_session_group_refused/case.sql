-- A window Top-N over a SESSION TVF grouped by a key that is not its partition key: the GroupAggregate
-- keeps window_start and window_end as window columns, so Flink plans a WindowRank over its updates and
-- refuses it (found by tests/flink/random_queries.py, random query 2014-16). Sluice ran a regular Rank.
CREATE TABLE t (
  id INT, k STRING, a INT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '2' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
SELECT window_start, window_end, k, cnt, total FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY cnt ASC, k) AS rn
  FROM (SELECT window_start, window_end, k, COUNT(*) AS cnt, SUM(a) AS total
        FROM TABLE(SESSION(TABLE t, DESCRIPTOR(ts), INTERVAL '10' SECOND)) GROUP BY window_start, window_end, k)
) WHERE rn <= 2;
