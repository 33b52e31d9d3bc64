-- Nexmark q7 (nexmark/nexmark, nexmark-flink/src/main/resources/queries/q7.sql), after the shared DDL:
--   build-release/sluice run -i bench/nexmark/ddl.sql bench/nexmark/q7.sql
-- As issue 4's benchmark asks, 'first-event.rate' and 'next-event.rate' are 100000: events are 10 us
-- apart in event time, so 10M events span 100 s of event time and windows fire as the run goes.

ALTER TABLE datagen SET ('first-event.rate' = '100000', 'next-event.rate' = '100000');

-- -------------------------------------------------------------------------------------------------
-- Query 7: Highest Bid
-- -------------------------------------------------------------------------------------------------
-- What are the highest bids per period?
-- Deliberately implemented using a side input to illustrate fanout.
--
-- The original Nexmark Query7 calculate the highest bids in the last minute.
-- We will use a shorter window (10 seconds) to help make testing easier.
-- -------------------------------------------------------------------------------------------------

CREATE TABLE nexmark_q7 (
  auction  BIGINT,
  bidder  BIGINT,
  price  BIGINT,
  `dateTime`  TIMESTAMP(3),
  extra  VARCHAR
) WITH (
  'connector' = 'blackhole'
);

INSERT INTO nexmark_q7
SELECT B.auction, B.price, B.bidder, B.`dateTime`, B.extra
from bid B
JOIN (
  SELECT MAX(price) AS maxprice, window_end as `dateTime`
  FROM TABLE(
          TUMBLE(TABLE bid, DESCRIPTOR(`dateTime`), INTERVAL '10' SECOND))
  GROUP BY window_start, window_end
) B1
ON B.price = B1.maxprice
WHERE B.`dateTime` BETWEEN B1.`dateTime`  - INTERVAL '10' SECOND AND B1.`dateTime`;
