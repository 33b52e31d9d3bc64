-- The csv format without quoting, with an escape character and ';' as the delimiter.
SET 'table.local-time-zone' = 'UTC';
CREATE TABLE text_values (id INT, dv STRING, tv STRING, sv STRING, dbl DOUBLE)
WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/text_values.json', 'format' = 'json');
CREATE TABLE out_csv (
  id INT, d2 DECIMAL(38, 2), d4 DECIMAL(38, 4), d10 DECIMAL(38, 10), d0 DECIMAL(38, 0),
  ts0 TIMESTAMP(0), ts1 TIMESTAMP(1), ts3 TIMESTAMP(3), ts6 TIMESTAMP(6), t0 TIME(0), t3 TIME(3),
  ltz3 TIMESTAMP_LTZ(3), ltz6 TIMESTAMP_LTZ(6), dt DATE, s STRING, dbl DOUBLE, flag BOOLEAN
) WITH ('connector' = 'filesystem', 'path' = '${OUT_DIR}/out_csv', 'format' = 'csv', 'csv.disable-quote-character' = 'true', 'csv.escape-character' = '\', 'csv.field-delimiter' = ';');
INSERT INTO out_csv
SELECT id, CAST(dv AS DECIMAL(38, 2)), CAST(dv AS DECIMAL(38, 4)), CAST(dv AS DECIMAL(38, 10)), CAST(dv AS DECIMAL(38, 0)),
       CAST(tv AS TIMESTAMP(0)), CAST(tv AS TIMESTAMP(1)), CAST(tv AS TIMESTAMP(3)), CAST(tv AS TIMESTAMP(6)),
       CAST(CAST(tv AS TIMESTAMP(0)) AS TIME(0)), CASE WHEN id = 8 THEN CAST(NULL AS TIME(3)) WHEN id > 5 THEN TIME '23:59:59.9' ELSE TIME '10:00:05.123' END,
       CAST(CAST(tv AS TIMESTAMP(3)) AS TIMESTAMP_LTZ(3)), CAST(CAST(tv AS TIMESTAMP(6)) AS TIMESTAMP_LTZ(6)),
       CAST(CAST(tv AS TIMESTAMP(3)) AS DATE), sv, dbl, id > 5
FROM text_values;
