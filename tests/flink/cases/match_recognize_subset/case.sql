-- MATCH_RECOGNIZE: SUBSET in MEASURES. Flink 2.2 looks a subset's rows up by its name, to which no row is mapped: navigations give NULL, COUNT 0.
CREATE TABLE Ticker (
  symbol STRING, rowtime TIMESTAMP(3), price BIGINT, tax BIGINT, pt AS PROCTIME(),
  WATERMARK FOR rowtime AS rowtime - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/ticker.json', 'format' = 'json');
SELECT * FROM Ticker MATCH_RECOGNIZE (
  PARTITION BY symbol ORDER BY rowtime
  MEASURES A.price AS a, LAST(S.price) AS lastS, FIRST(S.price) AS firstS, S.price AS s, AVG(S.price) AS avgS,
    COUNT(S.price) AS cntS, SUM(S.price * S.tax) AS weightedS, COUNT(A.price) AS cntA
  AFTER MATCH SKIP PAST LAST ROW
  PATTERN (A B C)
  SUBSET S = (A, B), T = (C)
  DEFINE A AS A.price > 15);
