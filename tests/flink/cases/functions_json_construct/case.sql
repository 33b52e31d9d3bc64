-- IS JSON [VALUE|SCALAR|ARRAY|OBJECT], JSON_STRING, JSON_OBJECT and JSON_ARRAY (NULL / ABSENT ON NULL,
-- nested constructors inserted as JSON) over columns: string escaping, number text, NULLs.
CREATE TABLE t (id INT, j STRING, s STRING, n INT, d DOUBLE, m DECIMAL(10, 7), b BOOLEAN)
WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/input.json', 'format' = 'json');
SELECT id, j IS JSON AS v, j IS JSON VALUE AS v2, j IS JSON SCALAR AS sc, j IS JSON ARRAY AS arr,
       j IS JSON OBJECT AS obj, j IS NOT JSON AS nj,
       JSON_STRING(s) AS js, JSON_STRING(n) AS jn, JSON_STRING(d) AS jd, JSON_STRING(m) AS jm, JSON_STRING(b) AS jb,
       JSON_OBJECT('s' VALUE s, KEY 'n' VALUE n, 'd' VALUE d) AS o1,
       JSON_OBJECT('m' VALUE m, 'b' VALUE b ABSENT ON NULL) AS o2,
       JSON_OBJECT('o' VALUE JSON_OBJECT('n' VALUE n), 'a' VALUE JSON_ARRAY(s, n NULL ON NULL), 'j' VALUE j) AS o3,
       JSON_ARRAY(s, n, d, b) AS a1, JSON_ARRAY(n, s NULL ON NULL) AS a2, JSON_ARRAY(JSON_ARRAY(n), JSON_OBJECT()) AS a3,
       JSON_OBJECT('k' VALUE 1, 'k' VALUE 2, 'x' VALUE 3) AS o4
FROM t;
