-- ARRAY columns in the csv format: elements joined by 'csv.array-element-delimiter', NULL elements, quoting.
CREATE TABLE text_values (id INT, dv STRING, tv STRING, sv STRING, dbl DOUBLE)
WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/text_values.json', 'format' = 'json');
CREATE TABLE out_csv (id INT, strs ARRAY<STRING>, nums ARRAY<INT>, decs ARRAY<DECIMAL(38, 2)>, tss ARRAY<TIMESTAMP(3)>)
WITH ('connector' = 'filesystem', 'path' = '${OUT_DIR}/out_csv', 'format' = 'csv');
INSERT INTO out_csv
SELECT id, ARRAY[sv, 'k'], ARRAY[id, id * 10], ARRAY[CAST(dv AS DECIMAL(38, 2)), CAST(0.5 AS DECIMAL(38, 2))], ARRAY[CAST(tv AS TIMESTAMP(3)), TIMESTAMP '2026-01-01 10:00:06']
FROM text_values;
