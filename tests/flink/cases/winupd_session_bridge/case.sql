-- SESSION (PARTITION BY k) over a changelog: a delete between two sessions of a merges them (retractions open and merge sessions like inserts), an update moves a row of b to a later session, and a session of a deleted row alone still fires its two changes (into a print sink).
CREATE TABLE changes (
  id INT, k STRING, v INT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' HOUR
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/changes.debezium.json', 'format' = 'debezium-json');
CREATE TABLE out_rows (window_start TIMESTAMP(3), window_end TIMESTAMP(3), window_time TIMESTAMP(3), id INT, k STRING, v INT) WITH ('connector' = 'print');
INSERT INTO out_rows SELECT window_start, window_end, window_time, id, k, v FROM TABLE(SESSION(TABLE changes PARTITION BY k, DESCRIPTOR(ts), INTERVAL '30' SECOND));
