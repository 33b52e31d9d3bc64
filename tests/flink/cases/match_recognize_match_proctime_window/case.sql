-- MATCH_RECOGNIZE: MATCH_PROCTIME() is a processing-time attribute a processing-time window can follow.
-- The plans agree; the rows differ as for every processing-time window at the end of a bounded input.
CREATE TABLE Ticker (
  symbol STRING, rowtime TIMESTAMP(3), price BIGINT, tax BIGINT,
  WATERMARK FOR rowtime AS rowtime - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/ticker.json', 'format' = 'json');
CREATE VIEW drops AS SELECT * FROM Ticker MATCH_RECOGNIZE (
  PARTITION BY symbol ORDER BY rowtime
  MEASURES A.price AS p, MATCH_PROCTIME() AS mp
  PATTERN (A B)
  DEFINE A AS A.price > 20);
SELECT symbol, COUNT(*) AS n, SUM(p) AS total
FROM TABLE(TUMBLE(TABLE drops, DESCRIPTOR(mp), INTERVAL '1' HOUR))
GROUP BY window_start, window_end, symbol;
