-- An OVER window ordered by two columns: Flink 2.2.1 refuses it with "The window can only be ordered by
-- a single time column." (found by tests/flink/random_queries.py, random query 2015-205; Sluice's
-- message was its own).
CREATE TABLE t (
  id INT, g INT, a INT, b BIGINT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '2' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
SELECT id, SUM(b) OVER (ORDER BY g, a) AS o0 FROM t;
