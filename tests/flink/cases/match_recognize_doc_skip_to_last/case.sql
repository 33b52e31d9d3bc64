-- MATCH_RECOGNIZE: the After Match Strategy example of Flink's Pattern Recognition page with
-- AFTER MATCH SKIP TO LAST A (SUM in DEFINE and MEASURES) on other prices; A{2,} so that no match
-- ends its A rows on its first row (the skip would fail there, as in the page's SKIP TO FIRST A).
CREATE TABLE Ticker (
  symbol STRING, rowtime TIMESTAMP(3), price BIGINT, tax BIGINT,
  WATERMARK FOR rowtime AS rowtime - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/ticker_minutes.json', 'format' = 'json');
SELECT *
FROM Ticker
    MATCH_RECOGNIZE(
        PARTITION BY symbol
        ORDER BY rowtime
        MEASURES
            SUM(A.price) AS sumPrice,
            FIRST(rowtime) AS startTime,
            LAST(rowtime) AS endTime
        ONE ROW PER MATCH
        AFTER MATCH SKIP TO LAST A
        PATTERN (A{2,} C)
        DEFINE
            A AS SUM(A.price) < 40
    );
