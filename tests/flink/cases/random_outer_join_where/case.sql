-- RIGHT JOIN narrowed by a WHERE on the padded side: Flink plans an inner join (random query 3-94)
CREATE TABLE t (
  id INT, k STRING, g INT, a INT, b BIGINT, x DOUBLE, m DECIMAL(10, 2), s STRING, f BOOLEAN, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
CREATE TABLE u (
  uid INT, k STRING, g INT, y INT, n DECIMAL(8, 3), ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/u.json', 'format' = 'json');
SELECT t.id, u.uid, u.y FROM t RIGHT JOIN u ON t.k = u.k WHERE t.f;
