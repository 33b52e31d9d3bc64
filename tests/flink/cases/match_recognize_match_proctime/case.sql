-- MATCH_RECOGNIZE: MATCH_PROCTIME() in MEASURES (a processing-time attribute; its value is the wall clock, so only its presence is compared) and in a DEFINE.
CREATE TABLE Ticker (
  symbol STRING, rowtime TIMESTAMP(3), price BIGINT, tax BIGINT, pt AS PROCTIME(),
  WATERMARK FOR rowtime AS rowtime - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/ticker.json', 'format' = 'json');
SELECT symbol, p, CAST(mp AS STRING) IS NOT NULL AS has FROM Ticker MATCH_RECOGNIZE (
  PARTITION BY symbol ORDER BY rowtime
  MEASURES A.price AS p, MATCH_PROCTIME() AS mp
  PATTERN (A B)
  DEFINE A AS A.price > 20 AND MATCH_PROCTIME() IS NOT NULL);
