-- MATCH_RECOGNIZE: the Logical offsets example of Flink's Pattern Recognition page (LAST(A.price, 1)
-- in DEFINE, the default AFTER MATCH strategy) on other prices.
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
            FIRST(A.price) AS startPrice,
            LAST(A.price) AS topPrice,
            B.price AS lastPrice
        ONE ROW PER MATCH
        PATTERN (A+ B)
        DEFINE
            A AS LAST(A.price, 1) IS NULL OR A.price > LAST(A.price, 1),
            B AS B.price < LAST(A.price)
    );
