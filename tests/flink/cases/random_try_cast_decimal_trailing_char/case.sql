-- Random query 2011-49 (over): TRUNCATE(TRY_CAST(k AS DECIMAL(10, 2)), 0) over k 'a'..'d' was 0 on
-- Flink 2.2.1, NULL on Sluice. Flink's text-to-DECIMAL cast skips one trailing character: 'a' is 0.00,
-- '1a' 1.00, '1.5a' 1.50; 'ab', 'apple' and 'a1' are no number (flink_differences.md).
CREATE TABLE t (k STRING) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
SELECT k, TRY_CAST(k AS DECIMAL(10, 2)) AS d, TRUNCATE(TRY_CAST(k AS DECIMAL(10, 2)), 0) AS t0,
  TRY_CAST(k AS INT) AS i
FROM t;
