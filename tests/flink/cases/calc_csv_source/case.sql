-- Calc over a csv file (empty field as NULL).
CREATE TABLE readings (sensor STRING, reading DOUBLE, ts TIMESTAMP(3))
WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/readings.csv', 'format' = 'csv');
SELECT sensor, reading, reading * 2 AS doubled, ts FROM readings WHERE sensor <> 's2';
