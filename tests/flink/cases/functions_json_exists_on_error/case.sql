-- JSON_EXISTS's ON ERROR clause over columns: invalid JSON, strict paths that lead nowhere, steps of the
-- wrong kind in lax and strict paths, JSON null.
CREATE TABLE t (id INT, j STRING)
WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/input.json', 'format' = 'json');
SELECT id, JSON_EXISTS(j, '$.a' TRUE ON ERROR) AS a, JSON_EXISTS(j, '$.a.b[5]' TRUE ON ERROR) AS b,
       JSON_EXISTS(j, 'strict $.zz' TRUE ON ERROR) AS c, JSON_EXISTS(j, 'strict $.zz' UNKNOWN ON ERROR) AS d,
       JSON_EXISTS(j, 'strict $.a' FALSE ON ERROR) AS e, JSON_EXISTS(j, '$.zz' UNKNOWN ON ERROR) AS f,
       JSON_EXISTS(j, 'strict $.n' TRUE ON ERROR) AS g, JSON_EXISTS(j, 'strict $.a.b[5]' TRUE ON ERROR) AS h,
       JSON_EXISTS(j, '$[0]' TRUE ON ERROR) AS i, JSON_EXISTS(j, 'strict $[0]' UNKNOWN ON ERROR) AS k
FROM t;
