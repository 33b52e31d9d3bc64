-- A constant cast through FLOAT: Flink 2.2.1 folds CAST(CAST(31.05 AS DOUBLE) AS FLOAT) at planning in
-- exact arithmetic (31.05); the same cast of a column at run time, as Sluice's, gives the FLOAT's value
-- 31.049999237060547 (found by tests/flink/random_queries.py, random query 2015-279; minimised by hand).
CREATE TABLE t (
  id INT, x DOUBLE
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
SELECT id, CAST(CAST(CAST(31.05 AS DOUBLE) AS FLOAT) AS DOUBLE) AS c0, CAST(CAST(x AS FLOAT) AS DOUBLE) AS c1 FROM t;
