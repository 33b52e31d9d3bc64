-- MATCH_RECOGNIZE: a DEFINE cannot name a SUBSET (Calcite's validator).
CREATE TABLE Ticker (
  symbol STRING, rowtime TIMESTAMP(3), price BIGINT, tax BIGINT, pt AS PROCTIME(),
  WATERMARK FOR rowtime AS rowtime - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/ticker.json', 'format' = 'json');
SELECT * FROM Ticker MATCH_RECOGNIZE (
  PARTITION BY symbol ORDER BY rowtime
  MEASURES A.price AS a PATTERN (A B C)
  SUBSET S = (A, B)
  DEFINE A AS A.price > 15, C AS C.price > LAST(S.price));
