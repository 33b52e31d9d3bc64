-- Random query 2030-84: CAST(TRY_CAST('99999999.999' AS DECIMAL(10, 2)) AS DOUBLE): Flink 2.2.1 gives 1.0E8,
-- though the TRY_CAST alone is NULL (random_cast_edge_texts); Sluice gives NULL.
CREATE TABLE t (
  id INT, k STRING, g INT, a INT, b BIGINT, x DOUBLE, m DECIMAL(10, 2), s STRING, f BOOLEAN, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
SELECT id, LTRIM(LPAD(k, 6, 'xy')) AS c0, CAST(TRY_CAST(CONCAT('2026-8-5', SUBSTRING(k, 1, 0)) AS DATE) AS STRING) AS c1, CAST(TRY_CAST(CONCAT('99999999.999', SUBSTRING(s, 1, 0)) AS DECIMAL(10, 2)) AS DOUBLE) AS c2
FROM t;
