-- REGEXP_COUNT, REGEXP_INSTR, REGEXP_SUBSTR, REGEXP_EXTRACT_ALL and the SHA hashes over a small input.
CREATE TABLE t (id INT, s STRING, re STRING, bits INT)
WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/input.json', 'format' = 'json');
SELECT id, REGEXP_COUNT(s, re) AS c, REGEXP_INSTR(s, re) AS i, REGEXP_SUBSTR(s, re) AS sub,
       REGEXP_EXTRACT_ALL(s, re, 0) AS a0, REGEXP_EXTRACT_ALL(s, '([a-z])(\d+)', 2) AS a2,
       SHA1(s) AS h1, SHA224(s) AS h224, SHA256(s) AS h256, SHA384(s) AS h384, SHA512(s) AS h512, SHA2(s, bits) AS h2
FROM t;
