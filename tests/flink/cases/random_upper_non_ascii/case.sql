-- UPPER/LOWER of non-ASCII letters: Java's case mapping on both (random query 3-145; Sluice mapped ASCII only)
CREATE TABLE t (
  id INT, k STRING, g INT, a INT, b BIGINT, x DOUBLE, m DECIMAL(10, 2), s STRING, f BOOLEAN, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
SELECT id, s, UPPER(s) AS u, LOWER(s) AS l FROM t;
