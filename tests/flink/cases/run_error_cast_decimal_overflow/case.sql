-- A CAST of a string to a DECIMAL too narrow for it fails the job ("Overflow.").
CREATE TABLE text_values (id INT, dv STRING, tv STRING, sv STRING, dbl DOUBLE)
WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/text_values.json', 'format' = 'json');
SELECT id, CAST(dv AS DECIMAL(10, 2)) AS d FROM text_values WHERE id = 5;
