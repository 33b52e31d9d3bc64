-- MATCH_RECOGNIZE with alternation: Flink refuses it ("Currently, CEP doesn't support branching
-- patterns."); Sluice runs it with the SQL standard's semantics (docs/flink_differences.md).
CREATE TABLE Ticker (
  symbol STRING, rowtime TIMESTAMP(3), price BIGINT, tax BIGINT,
  WATERMARK FOR rowtime AS rowtime - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/ticker.json', 'format' = 'json');
SELECT * FROM Ticker MATCH_RECOGNIZE (
  PARTITION BY symbol ORDER BY rowtime
  MEASURES FIRST(A.price) AS firstPrice, LAST(B.price) AS lastB, LAST(C.price) AS lastC
  AFTER MATCH SKIP PAST LAST ROW
  PATTERN (A (B | C) D)
  DEFINE A AS A.price > 15, B AS B.price > 20, C AS C.price < 20, D AS D.price < 25);
