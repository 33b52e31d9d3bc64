-- A csv file with an empty numeric field, read as NULL through 'csv.null-literal' = '' (as Flink needs).
CREATE TABLE readings (sensor STRING, reading DOUBLE, ts TIMESTAMP(3))
WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/readings.csv', 'format' = 'csv', 'csv.null-literal' = '');
SELECT sensor, reading, reading * 2 AS doubled, ts FROM readings WHERE sensor <> 's2';
