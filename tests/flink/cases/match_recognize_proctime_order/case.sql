-- MATCH_RECOGNIZE ordered by processing time: rows are matched in arrival order (one file, parallelism 1: the file's order).
CREATE TABLE Ticker (
  symbol STRING, rowtime TIMESTAMP(3), price BIGINT, tax BIGINT, pt AS PROCTIME(),
  WATERMARK FOR rowtime AS rowtime - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/ticker.json', 'format' = 'json');
SELECT * FROM Ticker MATCH_RECOGNIZE (
  PARTITION BY symbol ORDER BY pt
  MEASURES A.price AS p, B.price AS bp, LAST(B.rowtime) AS bt
  AFTER MATCH SKIP PAST LAST ROW
  PATTERN (A B+? C)
  DEFINE A AS A.price > 20, B AS B.price < A.price, C AS C.price > LAST(B.price));
