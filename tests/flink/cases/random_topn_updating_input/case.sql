-- Top-N over a group aggregate: Flink's changelog is shorter than Sluice's, the tables agree (random query 3-35)
CREATE TABLE t (
  id INT, k STRING, g INT, a INT, b BIGINT, x DOUBLE, m DECIMAL(10, 2), s STRING, f BOOLEAN, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
SELECT k, g, total, cnt, rn FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY g ORDER BY total ASC, k, g) AS rn FROM (SELECT k, g, SUM(a) AS total, COUNT(*) AS cnt FROM t GROUP BY k, g)
) WHERE rn <= 1;
