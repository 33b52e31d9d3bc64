-- Random query 2011-189 (unnest; tests/flink/random_queries.py)
CREATE TABLE t (
  id INT, k STRING, g INT, a INT, b BIGINT, x DOUBLE, m DECIMAL(10, 2), s STRING, f BOOLEAN, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '0' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
SELECT id, e, o, ts AS c0, x AS c1
FROM (SELECT id, k, g, a, b, x, m, s, f, ts FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY id ORDER BY ts DESC) AS rn FROM t) WHERE rn = 1) AS t0 LEFT JOIN UNNEST(ARRAY[COALESCE('a', 'apple')]) WITH ORDINALITY AS ux (e, o) ON TRUE
WHERE (LPAD(k, 6, '*') IS NOT NULL);
