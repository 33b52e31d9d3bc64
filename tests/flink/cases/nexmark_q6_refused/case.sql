-- Nexmark q6 (bench/nexmark/q6.sql) on two small tables: the average of each seller's winning bids
-- over their last 10 auctions, an OVER window over a Top-N over a regular join. Flink 2.2.1 refuses it
-- at planning (after the regular join `dateTime` is no longer a time attribute), and so does Sluice,
-- with the same message (docs/performance.md, "Not runnable on either engine: q6").
CREATE TABLE auction (id BIGINT, seller BIGINT, `dateTime` TIMESTAMP(3), expires TIMESTAMP(3),
  WATERMARK FOR `dateTime` AS `dateTime` - INTERVAL '4' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/auction.json', 'format' = 'json');
CREATE TABLE bid (auction BIGINT, price BIGINT, `dateTime` TIMESTAMP(3),
  WATERMARK FOR `dateTime` AS `dateTime` - INTERVAL '4' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/bid.json', 'format' = 'json');
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
