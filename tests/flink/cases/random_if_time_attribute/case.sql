-- IF(f, TIMESTAMP(0) literal, rowtime ts): Flink types it TIMESTAMP(0) and cuts the milliseconds (random query 5-203)
CREATE TABLE t (
  id INT, k STRING, g INT, a INT, b BIGINT, x DOUBLE, m DECIMAL(10, 2), s STRING, f BOOLEAN, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
SELECT id, IF(f, TIMESTAMP '2026-08-15 10:00:18', ts) AS i1, IF(f, ts, TIMESTAMP '2026-08-15 10:00:18') AS i2,
  CASE WHEN f THEN TIMESTAMP '2026-08-15 10:00:18' ELSE ts END AS c1 FROM t;
