-- MATCH_RECOGNIZE: the Aggregations example of Flink's Pattern Recognition page (AVG in DEFINE
-- and MEASURES) on other prices.
CREATE TABLE Ticker (
  symbol STRING, rowtime TIMESTAMP(3), price BIGINT, tax BIGINT,
  WATERMARK FOR rowtime AS rowtime - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/ticker_minutes.json', 'format' = 'json');
SELECT *
FROM Ticker
    MATCH_RECOGNIZE (
        PARTITION BY symbol
        ORDER BY rowtime
        MEASURES
            FIRST(A.rowtime) AS start_tstamp,
            LAST(A.rowtime) AS end_tstamp,
            AVG(A.price) AS avgPrice
        ONE ROW PER MATCH
        AFTER MATCH SKIP PAST LAST ROW
        PATTERN (A+ B)
        DEFINE
            A AS AVG(A.price) < 15
    ) MR;
