-- The array functions of Flink 2 over arrays read from JSON (NULL arrays and NULL elements included).
CREATE TABLE t (id INT, a ARRAY<INT>, x INT, s ARRAY<STRING>, i INT, j INT)
WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/input.json', 'format' = 'json');
SELECT id, ARRAY_CONTAINS(a, x) AS c, ARRAY_POSITION(a, x) AS p, ARRAY_REMOVE(a, x) AS r, ARRAY_DISTINCT(a) AS d,
       ARRAY_REVERSE(a) AS rv, ARRAY_MAX(a) AS mx, ARRAY_MIN(s) AS mn, ARRAY_SLICE(a, i, j) AS sl, ARRAY_SLICE(a, i) AS sl2,
       ARRAY_APPEND(a, x) AS ap, ARRAY_PREPEND(a, 0) AS pp, ARRAY_CONCAT(a, ARRAY[9], a) AS cc, ARRAY_JOIN(s, '-') AS jn,
       ARRAY_JOIN(s, '-', '?') AS jn2, ARRAY_DISTINCT(s) AS ds
FROM t;
