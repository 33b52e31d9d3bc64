-- Random query 2011-98 (over), minimised: an aggregate with FILTER in an OVER window. Flink 2.2.1
-- refuses it while validating ("OVER must be applied to aggregate function"); Sluice runs it
-- (docs/sql.md, OVER aggregates; flink_differences.md#filter-in-an-over-aggregate).
CREATE TABLE t (id INT, k STRING, a INT, f BOOLEAN, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
SELECT id, SUM(a) FILTER (WHERE f) OVER (PARTITION BY k ORDER BY ts ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS o0
FROM t;
