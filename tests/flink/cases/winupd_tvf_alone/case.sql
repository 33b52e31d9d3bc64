-- The TUMBLE window TVF alone over a changelog source forwards the changes with their windows (into a print sink, which takes every change).
CREATE TABLE sales (
  id INT, k STRING, v INT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' HOUR
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/sales.debezium.json', 'format' = 'debezium-json');
CREATE TABLE out_rows (window_start TIMESTAMP(3), window_end TIMESTAMP(3), k STRING, v INT) WITH ('connector' = 'print');
INSERT INTO out_rows SELECT window_start, window_end, k, v FROM TABLE(TUMBLE(TABLE sales, DESCRIPTOR(ts), INTERVAL '1' MINUTE));
