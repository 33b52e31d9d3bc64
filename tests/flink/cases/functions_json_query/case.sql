-- JSON_QUERY over columns: objects and arrays as compact JSON text, scalars without a wrapper, the
-- WRAPPER clauses, missing paths, JSON nulls and invalid JSON with the ON EMPTY / ON ERROR clauses.
CREATE TABLE t (id INT, j STRING)
WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/input.json', 'format' = 'json');
SELECT id, JSON_QUERY(j, '$.a') AS a, JSON_QUERY(j, '$.a.b') AS b, JSON_QUERY(j, '$.s') AS s,
       JSON_QUERY(j, '$.s' WITH WRAPPER) AS sw, JSON_QUERY(j, '$.a.b' WITH UNCONDITIONAL ARRAY WRAPPER) AS bu,
       JSON_QUERY(j, '$.a.b' WITH CONDITIONAL WRAPPER) AS bc, JSON_QUERY(j, '$.s' WITH CONDITIONAL ARRAY WRAPPER) AS sc,
       JSON_QUERY(j, '$.zz' EMPTY ARRAY ON EMPTY) AS ze, JSON_QUERY(j, '$.n' EMPTY OBJECT ON EMPTY) AS ne,
       JSON_QUERY(j, '$.s' WITHOUT WRAPPER EMPTY ARRAY ON ERROR) AS se, JSON_QUERY(j, '$' EMPTY OBJECT ON ERROR) AS r,
       JSON_QUERY(j, '$[1]' WITH WRAPPER) AS e1, JSON_QUERY(j, 'strict $.zz' EMPTY ARRAY ON EMPTY EMPTY OBJECT ON ERROR) AS st
FROM t;
