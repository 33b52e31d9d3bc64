-- MATCH_RECOGNIZE in batch mode (Flink runs it since 1.16): the price-down-up example of Flink's
-- Pattern Recognition page over a bounded table whose file is out of time order (by more than the
-- watermark delay: streaming would drop those rows as late); two symbols.
CREATE TABLE Ticker (
  symbol STRING, rowtime TIMESTAMP(3), price BIGINT, tax BIGINT,
  WATERMARK FOR rowtime AS rowtime - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/ticker.json', 'format' = 'json');
SET 'execution.runtime-mode' = 'batch';
SELECT *
FROM Ticker
    MATCH_RECOGNIZE (
        PARTITION BY symbol
        ORDER BY rowtime
        MEASURES
            START_ROW.rowtime AS start_tstamp,
            LAST(PRICE_DOWN.rowtime) AS bottom_tstamp,
            LAST(PRICE_UP.rowtime) AS end_tstamp
        ONE ROW PER MATCH
        AFTER MATCH SKIP TO LAST PRICE_UP
        PATTERN (START_ROW PRICE_DOWN+ PRICE_UP)
        DEFINE
            PRICE_DOWN AS
                (LAST(PRICE_DOWN.price, 1) IS NULL AND PRICE_DOWN.price < START_ROW.price) OR
                    PRICE_DOWN.price < LAST(PRICE_DOWN.price, 1),
            PRICE_UP AS
                PRICE_UP.price > LAST(PRICE_DOWN.price, 1)
    ) MR;
