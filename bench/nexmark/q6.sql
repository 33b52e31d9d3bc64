-- Nexmark q6 (nexmark/nexmark, nexmark-flink/src/main/resources/queries/q6.sql), after the shared DDL:
--   build-release/sluice run -i bench/nexmark/ddl.sql bench/nexmark/q6.sql
-- Neither Flink 2.2.1 nor Sluice runs it; docs/performance.md ("Nexmark q6") gives both refusals.
-- Nexmark's own text filters `rownum` in the WHERE of the SELECT that defines it, which no SQL engine
-- resolves ("Column 'rownum' not found in any table"); here the filter is one level up, the form the
-- query means. Nexmark marks it unsupported: the OVER aggregation would read the Top-N's updates, and
-- Q.dateTime is no longer a time attribute after the regular join.

ALTER TABLE datagen SET ('first-event.rate' = '100000', 'next-event.rate' = '100000');

-- -------------------------------------------------------------------------------------------------
-- Query 6: Average Selling Price by Seller
-- -------------------------------------------------------------------------------------------------
-- The average selling price of each seller over their last 10 closed auctions.
-- Shares the winning bids of q4.
-- -------------------------------------------------------------------------------------------------

CREATE TABLE nexmark_q6 (
  seller BIGINT,
  avg_price BIGINT
) WITH (
  'connector' = 'blackhole'
);

INSERT INTO nexmark_q6
SELECT Q.seller,
       AVG(Q.price) OVER (PARTITION BY Q.seller ORDER BY Q.`dateTime` ROWS BETWEEN 10 PRECEDING AND CURRENT ROW)
FROM (
  SELECT * FROM (
    SELECT *, ROW_NUMBER() OVER (PARTITION BY id, seller ORDER BY price DESC) AS rownum
    FROM (SELECT A.id, A.seller, B.price, B.`dateTime`
          FROM auction AS A, bid AS B
          WHERE A.id = B.auction AND B.`dateTime` BETWEEN A.`dateTime` AND A.expires))
  WHERE rownum <= 1
) AS Q;
