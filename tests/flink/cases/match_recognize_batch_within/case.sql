-- MATCH_RECOGNIZE in batch mode: the Time constraint example of Flink's Pattern Recognition page
-- (WITHIN INTERVAL '1' HOUR, SKIP TO NEXT ROW) on other prices, rows 7 minutes apart: with no
-- watermarks, WITHIN still ends the partial matches by the rows' time.
CREATE TABLE Ticker (
  symbol STRING, rowtime TIMESTAMP(3), price BIGINT, tax BIGINT,
  WATERMARK FOR rowtime AS rowtime - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/ticker_minutes.json', 'format' = 'json');
SET 'execution.runtime-mode' = 'batch';
SELECT *
FROM Ticker
    MATCH_RECOGNIZE(
        PARTITION BY symbol
        ORDER BY rowtime
        MEASURES
            C.rowtime AS dropTime,
            A.price - C.price AS dropDiff
        ONE ROW PER MATCH
        AFTER MATCH SKIP TO NEXT ROW
        PATTERN (A B* C) WITHIN INTERVAL '1' HOUR
        DEFINE
            B AS B.price > A.price - 10,
            C AS C.price < A.price - 10
    );
