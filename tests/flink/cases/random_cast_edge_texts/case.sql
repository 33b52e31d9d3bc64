-- TRY_CAST of edge texts (overflow, blanks, signs, exponents, bad dates and times) read from a file, so
-- neither engine folds them at planning (random queries of seed 2020: the cast_edges construct).
CREATE TABLE texts (id INT, s STRING) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/texts.json', 'format' = 'json');
SELECT id, s, TRY_CAST(s AS INT) AS i, TRY_CAST(s AS BIGINT) AS b, TRY_CAST(s AS SMALLINT) AS sm,
  TRY_CAST(s AS DECIMAL(10, 2)) AS d, TRY_CAST(s AS DECIMAL(4, 1)) AS d41, TRY_CAST(s AS DOUBLE) AS x,
  TRY_CAST(s AS BOOLEAN) AS bo, TRY_CAST(s AS DATE) AS dt, TRY_CAST(s AS TIMESTAMP(3)) AS ts,
  TRY_CAST(s AS TIME) AS tm
FROM texts;
