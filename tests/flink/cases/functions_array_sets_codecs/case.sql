-- ARRAY_SORT, ARRAY_UNION, ARRAY_INTERSECT, ARRAY_EXCEPT, MAP_FROM_ARRAYS, MAP_KEYS, MAP_VALUES, ENCODE,
-- DECODE, UNHEX and TYPEOF over arrays read from JSON (NULL arrays and NULL elements included).
CREATE TABLE t (id INT, a ARRAY<INT>, x INT, s ARRAY<STRING>, i INT, j INT)
WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/input.json', 'format' = 'json');
SELECT id, ARRAY_SORT(a) AS s1, ARRAY_SORT(a, FALSE) AS s2, ARRAY_SORT(s, TRUE, FALSE) AS s3,
       ARRAY_UNION(a, ARRAY[x, 4]) AS u, ARRAY_INTERSECT(a, ARRAY[1, 4, x]) AS n, ARRAY_EXCEPT(a, ARRAY[x]) AS e,
       MAP_KEYS(MAP_FROM_ARRAYS(ARRAY_SLICE(s, 1, 1), ARRAY_SLICE(a, 1, 1))) AS mk,
       MAP_VALUES(MAP_FROM_ARRAYS(ARRAY_SLICE(s, 1, 1), ARRAY_SLICE(a, 1, 1))) AS mv,
       DECODE(ENCODE(ARRAY_JOIN(s, ','), 'UTF-16LE'), 'UTF-16LE') AS rt, HEX(DECODE(ENCODE(ARRAY_JOIN(s, ','), 'UTF-16'), 'ISO-8859-1')) AS h16,
       DECODE(UNHEX(HEX(ARRAY_JOIN(s, '-'))), 'UTF-8') AS uh, TYPEOF(a) AS ta, TYPEOF(s[1]) AS ts
FROM t;
