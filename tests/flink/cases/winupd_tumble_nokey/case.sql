-- TUMBLE over a changelog source without COUNT(*) or keys: FIRST_VALUE_RETRACT and LAST_VALUE_RETRACT (no merge needed).
CREATE TABLE sales (
  id INT, k STRING, v INT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' HOUR
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/sales.debezium.json', 'format' = 'debezium-json');
SELECT window_start, window_end, SUM(v) AS total, FIRST_VALUE(v) AS f, LAST_VALUE(v) AS l
FROM TABLE(TUMBLE(TABLE sales, DESCRIPTOR(ts), INTERVAL '1' MINUTE))
GROUP BY window_start, window_end;
