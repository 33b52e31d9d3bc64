-- MATCH_RECOGNIZE: the Time attributes section of Flink's Pattern Recognition page: MATCH_ROWTIME()
-- is a rowtime attribute a window aggregation can follow (a TUMBLE window TVF of 30 minutes).
CREATE TABLE Ticker (
  symbol STRING, rowtime TIMESTAMP(3), price BIGINT, tax BIGINT,
  WATERMARK FOR rowtime AS rowtime - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/ticker_minutes.json', 'format' = 'json');
CREATE VIEW Drops AS
SELECT * FROM Ticker
    MATCH_RECOGNIZE(
        PARTITION BY symbol
        ORDER BY rowtime
        MEASURES
            A.price - C.price AS dropDiff,
            MATCH_ROWTIME() AS matchRowtime
        ONE ROW PER MATCH
        AFTER MATCH SKIP PAST LAST ROW
        PATTERN (A B* C)
        DEFINE
            B AS B.price > A.price - 10,
            C AS C.price < A.price - 5
    );
SELECT symbol, window_start, window_end, COUNT(*) AS drops, SUM(dropDiff) AS total
FROM TABLE(TUMBLE(TABLE Drops, DESCRIPTOR(matchRowtime), INTERVAL '30' MINUTE))
GROUP BY symbol, window_start, window_end;
