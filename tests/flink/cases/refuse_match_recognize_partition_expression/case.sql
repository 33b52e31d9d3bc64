-- MATCH_RECOGNIZE: PARTITION BY an expression fails Flink's validator (it casts each item to an identifier).
CREATE TABLE Ticker (
  symbol STRING, rowtime TIMESTAMP(3), price BIGINT, tax BIGINT, pt AS PROCTIME(),
  WATERMARK FOR rowtime AS rowtime - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/ticker.json', 'format' = 'json');
SELECT * FROM Ticker MATCH_RECOGNIZE (PARTITION BY UPPER(symbol) ORDER BY rowtime
  MEASURES A.price AS p PATTERN (A B) DEFINE A AS A.price > 20);
