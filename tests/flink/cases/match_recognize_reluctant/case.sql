-- MATCH_RECOGNIZE: a reluctant quantifier and MATCH_ROWTIME(), with the default AFTER MATCH strategy.
CREATE TABLE Ticker (
  symbol STRING, rowtime TIMESTAMP(3), price BIGINT, tax BIGINT,
  WATERMARK FOR rowtime AS rowtime - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/ticker.json', 'format' = 'json');
SELECT * FROM Ticker MATCH_RECOGNIZE (
  PARTITION BY symbol ORDER BY rowtime
  MEASURES FIRST(A.price) AS firstPrice, LAST(A.price) AS lastA, B.price AS bPrice, MATCH_ROWTIME() AS mt
  PATTERN (A+? B)
  DEFINE A AS A.price > 15, B AS B.price < LAST(A.price));
