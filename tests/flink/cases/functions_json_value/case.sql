-- JSON_VALUE and JSON_EXISTS in their plain form over JSON text read from a column (invalid JSON, JSON
-- null, arrays and objects).
CREATE TABLE t (id INT, j STRING, p STRING)
WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/input.json', 'format' = 'json');
SELECT id, JSON_VALUE(j, '$.c') AS c, JSON_VALUE(j, '$.a.b[0]') AS b0, JSON_VALUE(j, '$.a') AS a, 
       JSON_VALUE(j, '$.d') AS d, JSON_EXISTS(j, '$.d') AS ed, JSON_EXISTS(j, '$.a.b') AS eb,
       JSON_EXISTS(j, 'strict $.zz') AS ez
FROM t;
