-- Random query 2025-90: Top-N of rank 2 (`rn = 2`) over an updating input (a group aggregate of a
-- debezium-json t): Flink 2.2.1's folded table has two rows of rank 2 in a partition and a row retracted
-- more often than emitted (flink_differences.md#top-n-over-an-updating-input).
CREATE TABLE t (
  id INT, k STRING, g INT, a INT, b BIGINT, x DOUBLE, m DECIMAL(10, 2), s STRING, f BOOLEAN, ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'debezium-json');
SELECT k, g, total, cnt, rn FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY g ORDER BY cnt DESC, k, g) AS rn FROM (SELECT k, g, SUM(a) AS total, COUNT(*) AS cnt FROM t GROUP BY k, g)
) WHERE rn = 2;
