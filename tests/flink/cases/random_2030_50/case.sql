-- Random query 2030-50: a LEFT JOIN whose ON Flink proves false, and a TIMESTAMP_LTZ of the padded side in
-- WHERE: Flink 2.2.1's planner fails with a NullPointerException (TimestampString); Sluice answers.
SET 'table.exec.source.cdc-events-duplicate' = 'true';
CREATE TABLE t (
  id INT NOT NULL, k STRING, g INT, a INT, b BIGINT, x DOUBLE, m DECIMAL(10, 2), s STRING, f BOOLEAN, ts TIMESTAMP(3), PRIMARY KEY (id) NOT ENFORCED
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'debezium-json');
CREATE TABLE u (
  uid INT, k STRING, g INT, y INT, n DECIMAL(8, 3), ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/u.json', 'format' = 'json');
SET 'table.local-time-zone' = 'Asia/Kolkata';
SELECT ROUND(SIGN(t.x), 1) AS c0, CAST(TO_TIMESTAMP_LTZ(t.b, 0) AS TIMESTAMP(3)) AS c1
FROM t LEFT JOIN u ON t.g = u.g AND ('Pear' IN ('apple', CAST(NULL AS STRING)))
WHERE (DATE_FORMAT(CAST(u.ts AS TIMESTAMP_LTZ(3)), 'yyyy-MM-dd HH:mm:ss') LIKE '%e%');
