-- Flink 2's string functions: STARTSWITH, ENDSWITH, BTRIM, TRANSLATE, ELT, SPLIT, HEX, BIN, IFNULL,
-- IS_ALPHA, IS_DIGIT, IS_DECIMAL over a small input with NULLs and non-ASCII text.
CREATE TABLE t (id INT, s STRING, p STRING, n INT)
WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/input.json', 'format' = 'json');
SELECT id, STARTSWITH(s, p) AS sw, ENDSWITH(s, p) AS ew, BTRIM(s) AS bt0, BTRIM(s, p) AS bt, TRANSLATE(s, p, 'Z') AS tr,
       TRANSLATE(s, 'abc', p) AS tr2, ELT(n, s, p, 'third') AS e, SPLIT(s, p) AS sp, SPLIT(s, ' ') AS sp2,
       HEX(n) AS h, HEX(s) AS hs, BIN(n) AS b, IFNULL(p, 'none') AS f, IFNULL(n, 0) + 1 AS f2,
       IS_ALPHA(s) AS ia, IS_DIGIT(p) AS idg, IS_DECIMAL(s) AS idc, IS_DECIMAL(CAST(n AS STRING)) AS idn
FROM t;
