-- TUMBLE over a changelog source with LISTAGG_RETRACT.
CREATE TABLE sales (
  id INT, k STRING, v INT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' HOUR
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/sales.debezium.json', 'format' = 'debezium-json');
SELECT window_start, window_end, LISTAGG(k) AS ks, COUNT(*) AS n FROM TABLE(TUMBLE(TABLE sales, DESCRIPTOR(ts), INTERVAL '1' MINUTE)) GROUP BY window_start, window_end;
