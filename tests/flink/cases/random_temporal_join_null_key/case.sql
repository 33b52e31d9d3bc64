-- An event-time temporal join against a versioned view whose key can be NULL: Flink 2.2.1 joins a row of
-- t with a NULL k to the NULL key's version (t 3 with uid 103); Sluice, as SQL's `=`, matches no NULL key
-- (found by tests/flink/random_queries.py, random queries 2014-31 and 2014-76; minimised by hand).
CREATE TABLE t (
  id INT, k STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '0' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
CREATE TABLE u (
  uid INT, k STRING, y INT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '0' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/u.json', 'format' = 'json');
CREATE TEMPORARY VIEW v AS SELECT uid, k, y, ts FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY ts DESC) AS rn FROM u
) WHERE rn = 1;
SELECT t.id, t.k, v.uid, v.y
FROM t LEFT JOIN v FOR SYSTEM_TIME AS OF t.ts ON t.k = v.k;
