-- The SESSION window TVF (PARTITION BY k) alone over a changelog source: every change joins a session, keeps its kind and leaves with its session's bounds when the session fires (into a print sink, which takes every change).
CREATE TABLE sales (
  id INT, k STRING, v INT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' HOUR
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/sales.debezium.json', 'format' = 'debezium-json');
CREATE TABLE out_rows (window_start TIMESTAMP(3), window_end TIMESTAMP(3), id INT, k STRING, v INT) WITH ('connector' = 'print');
INSERT INTO out_rows SELECT window_start, window_end, id, k, v FROM TABLE(SESSION(TABLE sales PARTITION BY k, DESCRIPTOR(ts), INTERVAL '30' SECOND));
