// Round trip: parse -> unparse -> parse -> unparse must give the same text, for a corpus of
// statements in the shapes Flink users write (Flink docs, Nexmark q0-q22, the Larkspur views).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sql/parser.h"
#include "sql/unparser.h"

namespace sluice::sql {
namespace {

const std::vector<std::string>& Corpus() {
  static const std::vector<std::string> kCorpus = {
      // --- DDL
      R"(CREATE TABLE datagen (
    event_type int,
    person ROW<id BIGINT, name VARCHAR, emailAddress VARCHAR, creditCard VARCHAR, city VARCHAR,
               state VARCHAR, `dateTime` TIMESTAMP(3), extra VARCHAR>,
    auction ROW<id BIGINT, itemName VARCHAR, description VARCHAR, initialBid BIGINT, reserve BIGINT,
                `dateTime` TIMESTAMP(3), expires TIMESTAMP(3), seller BIGINT, category BIGINT, extra VARCHAR>,
    bid ROW<auction BIGINT, bidder BIGINT, price BIGINT, channel VARCHAR, url VARCHAR,
            `dateTime` TIMESTAMP(3), extra VARCHAR>,
    `dateTime` AS
        CASE
            WHEN event_type = 0 THEN person.`dateTime`
            WHEN event_type = 1 THEN auction.`dateTime`
            ELSE bid.`dateTime`
        END,
    WATERMARK FOR `dateTime` AS `dateTime` - INTERVAL '4' SECOND
) WITH (
    'connector' = 'nexmark',
    'first-event.rate' = '10000000',
    'events.num' = '100000000'
))",
      R"(CREATE TABLE nexmark_q1 (auction BIGINT, bidder BIGINT, price DECIMAL(23, 3),
           `dateTime` TIMESTAMP(3), extra VARCHAR) WITH ('connector' = 'blackhole'))",
      R"(CREATE TABLE nexmark_q10 (auction BIGINT, bidder BIGINT, price BIGINT, `dateTime` TIMESTAMP(3),
           extra VARCHAR, dt STRING, hm STRING) PARTITIONED BY (dt, hm) WITH (
           'connector' = 'filesystem', 'path' = 'file:///tmp/out/bid/', 'format' = 'csv',
           'partition.time-extractor.timestamp-pattern' = '$dt $hm:00'))",
      R"(CREATE TEMPORARY TABLE IF NOT EXISTS cat.db.orders (
           order_id STRING NOT NULL COMMENT 'the id',
           amount DECIMAL(10, 2),
           tags ARRAY<STRING>,
           attrs MAP<STRING, INT NOT NULL>,
           lines ARRAY<ROW<sku STRING, qty INT>> NOT NULL,
           nums INT ARRAY,
           ts TIMESTAMP(3),
           ts_ltz TIMESTAMP_LTZ(3),
           ts2 TIMESTAMP WITH LOCAL TIME ZONE,
           d DATE, t TIME, b BYTES, vb VARBINARY(10), c CHAR(3), dbl DOUBLE PRECISION, f FLOAT,
           iv INTERVAL DAY TO SECOND(3), ym INTERVAL YEAR TO MONTH,
           `offset` BIGINT METADATA VIRTUAL,
           part INT METADATA FROM 'partition' VIRTUAL,
           event_time TIMESTAMP_LTZ(3) METADATA FROM 'timestamp',
           proc AS PROCTIME(),
           total AS amount * 2 COMMENT 'doubled',
           WATERMARK FOR ts AS ts - INTERVAL '5' SECOND,
           PRIMARY KEY (order_id) NOT ENFORCED
         ) COMMENT 'orders table' WITH ('connector' = 'kafka', 'topic' = 'orders',
           'properties.bootstrap.servers' = 'localhost:9092', 'format' = 'json'))",
      R"(CREATE TABLE users (id BIGINT PRIMARY KEY NOT ENFORCED, name STRING) WITH ('connector' = 'upsert-kafka'))",
      R"(CREATE TABLE t2 WITH ('connector' = 'print') LIKE t1 (EXCLUDING OPTIONS INCLUDING WATERMARKS))",
      R"(CREATE TABLE t3 (CONSTRAINT pk PRIMARY KEY (a, b) NOT ENFORCED, a INT, b INT) WITH ('connector' = 'print'))",
      R"(CREATE TABLE t4 WITH ('connector' = 'print') AS SELECT a, b FROM t1)",
      R"(CREATE VIEW person AS SELECT person.id, person.name, person.emailAddress, person.creditCard, person.city,
           person.state, `dateTime`, person.extra FROM datagen WHERE event_type = 0)",
      R"(CREATE TEMPORARY VIEW IF NOT EXISTS v (a, b) COMMENT 'view' AS SELECT x, y FROM t)",
      "DROP TABLE IF EXISTS cat.db.t",
      "DROP TEMPORARY VIEW v",
      "SHOW TABLES",
      "SHOW VIEWS",
      "SHOW FUNCTIONS",
      "DESCRIBE orders",
      "DESC cat.db.orders",
      "SHOW CREATE TABLE orders",
      "SHOW CREATE VIEW v",
      "SHOW CREATE CATALOG lake",
      "DESCRIBE CATALOG lake",
      "DESC CATALOG EXTENDED lake",
      "SET 'table.exec.mini-batch.enabled' = 'true'",
      "SET",
      "RESET 'table.exec.mini-batch.enabled'",
      "RESET",
      "INSERT INTO t SELECT a, b FROM u ON CONFLICT DO ERROR",
      "INSERT INTO t (a, b) SELECT a, b FROM u JOIN v ON u.k = v.k ON CONFLICT DO NOTHING",
      "INSERT INTO t PARTITION (p = 'x') SELECT a FROM u ON CONFLICT DO DEDUPLICATE",
      // --- Nexmark q0-q22 shapes
      "INSERT INTO nexmark_q0 SELECT auction, bidder, price, `dateTime`, extra FROM bid",
      "INSERT INTO nexmark_q1 SELECT auction, bidder, 0.908 * price as price, `dateTime`, extra FROM bid",
      "INSERT INTO nexmark_q2 SELECT auction, price FROM bid WHERE MOD(auction, 123) = 0",
      R"(INSERT INTO nexmark_q3 SELECT P.name, P.city, P.state, A.id
         FROM auction AS A INNER JOIN person AS P on A.seller = P.id
         WHERE A.category = 10 and (P.state = 'OR' OR P.state = 'ID' OR P.state = 'CA'))",
      R"(INSERT INTO nexmark_q4 SELECT Q.category, AVG(Q.final)
         FROM (SELECT MAX(B.price) AS final, A.category FROM auction A, bid B
               WHERE A.id = B.auction AND B.`dateTime` BETWEEN A.`dateTime` AND A.expires
               GROUP BY A.id, A.category) Q
         GROUP BY Q.category)",
      R"(INSERT INTO nexmark_q5 SELECT AuctionBids.auction, AuctionBids.num
 FROM (SELECT auction, count(*) AS num, window_start AS starttime, window_end AS endtime
       FROM TABLE(HOP(TABLE bid, DESCRIPTOR(`dateTime`), INTERVAL '2' SECOND, INTERVAL '10' SECOND))
       GROUP BY auction, window_start, window_end) AS AuctionBids
 JOIN (SELECT max(CountBids.num) AS maxn, CountBids.starttime, CountBids.endtime
       FROM (SELECT count(*) AS num, window_start AS starttime, window_end AS endtime
             FROM TABLE(HOP(TABLE bid, DESCRIPTOR(`dateTime`), INTERVAL '2' SECOND, INTERVAL '10' SECOND))
             GROUP BY auction, window_start, window_end) AS CountBids
       GROUP BY CountBids.starttime, CountBids.endtime) AS MaxBids
 ON AuctionBids.starttime = MaxBids.starttime AND AuctionBids.endtime = MaxBids.endtime AND
    AuctionBids.num >= MaxBids.maxn)",
      R"(INSERT INTO nexmark_q6 SELECT Q.seller,
    AVG(Q.price) OVER (PARTITION BY Q.seller ORDER BY Q.`dateTime` ROWS BETWEEN 10 PRECEDING AND CURRENT ROW)
FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY A.id, A.seller ORDER BY B.price DESC) AS rownum
      FROM (SELECT A.id, A.seller, B.price, B.`dateTime` FROM auction AS A, bid AS B
            WHERE A.id = B.auction and B.`dateTime` between A.`dateTime` and A.expires)
      WHERE rownum <= 1) AS Q)",
      R"(INSERT INTO nexmark_q7 SELECT B.auction, B.price, B.bidder, B.`dateTime`, B.extra from bid B
JOIN (SELECT MAX(price) AS maxprice, window_end as `dateTime`
      FROM TABLE(TUMBLE(TABLE bid, DESCRIPTOR(`dateTime`), INTERVAL '10' SECOND))
      GROUP BY window_start, window_end) B1
ON B.price = B1.maxprice
WHERE B.`dateTime` BETWEEN B1.`dateTime` - INTERVAL '10' SECOND AND B1.`dateTime`)",
      R"(INSERT INTO nexmark_q8 SELECT P.id, P.name, P.starttime
FROM (SELECT id, name, window_start AS starttime, window_end AS endtime
      FROM TABLE(TUMBLE(TABLE person, DESCRIPTOR(`dateTime`), INTERVAL '10' SECOND))
      GROUP BY id, name, window_start, window_end) P
JOIN (SELECT seller, window_start AS starttime, window_end AS endtime
      FROM TABLE(TUMBLE(TABLE auction, DESCRIPTOR(`dateTime`), INTERVAL '10' SECOND))
      GROUP BY seller, window_start, window_end) A
ON P.id = A.seller AND P.starttime = A.starttime AND P.endtime = A.endtime)",
      R"(INSERT INTO nexmark_q9 SELECT id, itemName, description, initialBid, reserve, `dateTime`, expires, seller,
    category, extra, auction, bidder, price, bid_dateTime, bid_extra
FROM (SELECT A.*, B.auction, B.bidder, B.price, B.`dateTime` AS bid_dateTime, B.extra AS bid_extra,
        ROW_NUMBER() OVER (PARTITION BY A.id ORDER BY B.price DESC, B.`dateTime` ASC) AS rownum
      FROM auction A, bid B
      WHERE A.id = B.auction AND B.`dateTime` BETWEEN A.`dateTime` AND A.expires)
WHERE rownum <= 1)",
      R"(INSERT INTO nexmark_q10 SELECT auction, bidder, price, `dateTime`, extra,
         DATE_FORMAT(`dateTime`, 'yyyy-MM-dd'), DATE_FORMAT(`dateTime`, 'HH:mm') FROM bid)",
      R"(INSERT INTO nexmark_q11 SELECT B.bidder, count(*) as bid_count,
    SESSION_START(B.`dateTime`, INTERVAL '10' SECOND) as starttime,
    SESSION_END(B.`dateTime`, INTERVAL '10' SECOND) as endtime
FROM bid B GROUP BY B.bidder, SESSION(B.`dateTime`, INTERVAL '10' SECOND))",
      "CREATE VIEW B AS SELECT *, PROCTIME() as p_time FROM bid",
      R"(INSERT INTO nexmark_q12 SELECT bidder, count(*) as bid_count, window_start AS starttime,
    window_end AS endtime
FROM TABLE(TUMBLE(TABLE B, DESCRIPTOR(p_time), INTERVAL '10' SECOND))
GROUP BY bidder, window_start, window_end)",
      R"(INSERT INTO nexmark_q13 SELECT B.auction, B.bidder, B.price, B.`dateTime`, S.`value`
FROM (SELECT *, PROCTIME() as p_time FROM bid) B
JOIN side_input FOR SYSTEM_TIME AS OF B.p_time AS S
ON mod(B.auction, 10000) = S.key)",
      R"(INSERT INTO nexmark_q14 SELECT auction, bidder, 0.908 * price as price,
    CASE
        WHEN HOUR(`dateTime`) >= 8 AND HOUR(`dateTime`) <= 18 THEN 'dayTime'
        WHEN HOUR(`dateTime`) <= 6 OR HOUR(`dateTime`) >= 20 THEN 'nightTime'
        ELSE 'otherTime'
    END AS bidTimeType,
    `dateTime`, extra, count_char(extra, 'c') AS c_counts
FROM bid WHERE 0.908 * price > 1000000 AND 0.908 * price < 50000000)",
      R"(INSERT INTO nexmark_q15 SELECT DATE_FORMAT(`dateTime`, 'yyyy-MM-dd') as `day`,
     count(*) AS total_bids,
     count(*) filter (where price < 10000) AS rank1_bids,
     count(*) filter (where price >= 10000 and price < 1000000) AS rank2_bids,
     count(distinct bidder) AS total_bidders,
     count(distinct bidder) filter (where price < 10000) AS rank1_bidders
FROM bid GROUP BY DATE_FORMAT(`dateTime`, 'yyyy-MM-dd'))",
      R"(INSERT INTO nexmark_q16 SELECT channel, DATE_FORMAT(`dateTime`, 'yyyy-MM-dd') as `day`,
    max(DATE_FORMAT(`dateTime`, 'HH:mm')) as `minute`, count(*) AS total_bids,
    count(distinct auction) filter (where price >= 1000000) AS rank3_auctions
FROM bid GROUP BY channel, DATE_FORMAT(`dateTime`, 'yyyy-MM-dd'))",
      R"(INSERT INTO nexmark_q17 SELECT auction, DATE_FORMAT(`dateTime`, 'yyyy-MM-dd') as `day`, count(*) AS total_bids,
     min(price) AS min_price, max(price) AS max_price, avg(price) AS avg_price, sum(price) AS sum_price
FROM bid GROUP BY auction, DATE_FORMAT(`dateTime`, 'yyyy-MM-dd'))",
      R"(INSERT INTO nexmark_q18 SELECT auction, bidder, price, channel, url, `dateTime`, extra
 FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY bidder, auction ORDER BY `dateTime` DESC) AS rank_number
       FROM bid)
 WHERE rank_number <= 1)",
      R"(INSERT INTO nexmark_q19 SELECT * FROM
(SELECT *, ROW_NUMBER() OVER (PARTITION BY auction ORDER BY price DESC) AS rank_number FROM bid)
WHERE rank_number <= 10)",
      R"(INSERT INTO nexmark_q20 SELECT auction, bidder, price, channel, url, B.`dateTime`, B.extra,
    itemName, description, initialBid, reserve, A.`dateTime`, expires, seller, category, A.extra
FROM bid AS B INNER JOIN auction AS A on B.auction = A.id WHERE A.category = 10)",
      R"(INSERT INTO nexmark_q21 SELECT auction, bidder, price, channel,
    CASE
        WHEN lower(channel) = 'apple' THEN '0'
        WHEN lower(channel) = 'google' THEN '1'
        ELSE REGEXP_EXTRACT(url, '(&|^)channel_id=([^&]*)', 2)
        END
    AS channel_id FROM bid
    where REGEXP_EXTRACT(url, '(&|^)channel_id=([^&]*)', 2) is not null or
          lower(channel) in ('apple', 'google', 'facebook', 'baidu'))",
      R"(INSERT INTO nexmark_q22 SELECT auction, bidder, price, channel, SPLIT_INDEX(url, '/', 3) as dir1,
    SPLIT_INDEX(url, '/', 4) as dir2, SPLIT_INDEX(url, '/', 5) as dir3 FROM bid)",
      // --- Larkspur views and statement set
      R"(CREATE VIEW baskets AS
SELECT * FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY basket_id ORDER BY arrived_at ASC) AS rn FROM pos_basket_events)
WHERE rn = 1)",
      R"(CREATE VIEW price_versions AS
SELECT sku, country, currency, price_minor, effective_from FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY sku, country ORDER BY effective_from DESC) AS rn FROM price_changes)
WHERE rn = 1)",
      R"(CREATE VIEW sales_lines AS
SELECT b.event_id, b.basket_id, b.store_id, b.event_ts, l.sku, l.qty,
       l.qty * l.unit_price_minor - l.discount_minor AS net_minor,
       p.price_minor AS list_price_minor, p.effective_from AS price_from
FROM baskets AS b
CROSS JOIN UNNEST(b.lines) AS l (line_no, sku, qty, unit_price_minor, discount_minor, promo_id)
LEFT JOIN price_versions FOR SYSTEM_TIME AS OF b.event_ts AS p
  ON p.sku = l.sku AND p.country = SUBSTRING(b.store_id, 1, 2))",
      R"(EXECUTE STATEMENT SET
BEGIN
INSERT INTO lake.`stream`.store_sales_hourly
SELECT store_id, currency, window_start, window_end, COUNT(DISTINCT basket_id), COUNT(*), SUM(qty), SUM(net_minor)
FROM TABLE(TUMBLE(TABLE sales_lines, DESCRIPTOR(event_ts), INTERVAL '1' HOUR))
GROUP BY store_id, currency, window_start, window_end;
INSERT INTO lake.`stream`.store_sales_daily
SELECT store_id, business_date, MAX(currency), COUNT(DISTINCT basket_id), SUM(qty), SUM(net_minor)
FROM sales_lines
GROUP BY store_id, business_date;
END)",
      R"(BEGIN STATEMENT SET;
INSERT INTO a SELECT * FROM x;
INSERT OVERWRITE b (c1, c2) SELECT c1, c2 FROM y;
END)",
      // --- queries from the Flink docs
      "SELECT * FROM Orders WHERE amount > 2 ORDER BY order_time DESC NULLS LAST LIMIT 10",
      "SELECT DISTINCT a, b FROM t",
      "SELECT /*+ STATE_TTL('o' = '1d', 'p' = '12h') */ o.id, p.name FROM Orders o JOIN Products p ON o.pid = p.id",
      "SELECT /*+ BROADCAST(t1), SHUFFLE_HASH(t2, t3) */ * FROM t1 JOIN t2 ON t1.id = t2.id",
      "SELECT id, name FROM kafka_table /*+ OPTIONS('scan.startup.mode'='earliest-offset') */ AS k",
      "SELECT window_start, window_end, SUM(price) FROM TABLE(TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTE)) GROUP BY window_start, window_end",
      R"(SELECT window_start, window_end, SUM(price) AS total_price
  FROM TABLE(HOP(DATA => TABLE Bid, TIMECOL => DESCRIPTOR(bidtime), SLIDE => INTERVAL '5' MINUTE,
                 SIZE => INTERVAL '10' MINUTE))
  GROUP BY window_start, window_end)",
      R"(SELECT window_start, window_end, SUM(price) FROM TABLE(
    CUMULATE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '2' MINUTE, INTERVAL '10' MINUTE))
  GROUP BY window_start, window_end)",
      R"(SELECT window_start, window_end, item, SUM(price) FROM TABLE(
    SESSION(TABLE Bid PARTITION BY item, DESCRIPTOR(bidtime), INTERVAL '5' MINUTE))
  GROUP BY item, window_start, window_end)",
      R"(SELECT * FROM TABLE(SESSION(TABLE Bid PARTITION BY (item, supplier), DESCRIPTOR(bidtime),
    INTERVAL '5' MINUTE)))",
      R"(SELECT * FROM (
    SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY price DESC) as rownum
    FROM (SELECT window_start, window_end, supplier_id, SUM(price) as price, COUNT(*) as cnt
          FROM TABLE(TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTE))
          GROUP BY window_start, window_end, supplier_id)
  ) WHERE rownum <= 3)",
      R"(SELECT order_id, price, currency, conversion_rate, order_time
FROM orders LEFT JOIN currency_rates FOR SYSTEM_TIME AS OF orders.order_time
ON orders.currency = currency_rates.currency)",
      R"(SELECT o.order_id, o.total, c.country, c.zip FROM Orders AS o
  JOIN Customers FOR SYSTEM_TIME AS OF o.proc_time AS c ON o.customer_id = c.id)",
      R"(SELECT * FROM Orders o, Shipments s WHERE o.id = s.order_id
AND o.order_time BETWEEN s.ship_time - INTERVAL '4' HOUR AND s.ship_time)",
      "SELECT order_id, tag FROM Orders CROSS JOIN UNNEST(tags) AS t (tag)",
      "SELECT a, s FROM T, LATERAL TABLE(split(a)) AS T2(s)",
      "SELECT a, s FROM T LEFT JOIN LATERAL TABLE(split(a)) AS T2(s) ON TRUE",
      "SELECT x, ord FROM T CROSS JOIN UNNEST(arr) WITH ORDINALITY AS u(x, ord)",
      "SELECT * FROM a FULL OUTER JOIN b USING (id) RIGHT JOIN c ON b.k = c.k",
      R"(SELECT product, amount, SUM(amount) OVER (PARTITION BY product ORDER BY order_time
    RANGE BETWEEN INTERVAL '1' HOUR PRECEDING AND CURRENT ROW) AS one_hour_prod_amount_sum FROM Orders)",
      R"(SELECT order_id, order_time, amount, SUM(amount) OVER w AS sum_amount, AVG(amount) OVER w AS avg_amount
FROM Orders WINDOW w AS (PARTITION BY product ORDER BY order_time ROWS BETWEEN 5 PRECEDING AND CURRENT ROW))",
      "SELECT supplier_id, rating, COUNT(*) AS total FROM (VALUES ('supplier1', 'product1', 4), ('supplier1', 'product2', 3)) AS Products(supplier_id, product_id, rating) GROUP BY GROUPING SETS ((supplier_id, rating), (supplier_id), ())",
      "SELECT a, b, COUNT(*) FROM t GROUP BY ROLLUP(a, b)",
      "SELECT a, b, COUNT(*) FROM t GROUP BY CUBE(a, b) HAVING COUNT(*) > 1",
      "WITH orders_with_total AS (SELECT order_id, price + tax AS total FROM Orders) SELECT order_id, SUM(total) FROM orders_with_total GROUP BY order_id",
      "WITH a (x) AS (SELECT 1), b AS (SELECT x FROM a) SELECT * FROM b",
      "(SELECT s FROM t1) UNION (SELECT s FROM t2)",
      "SELECT s FROM t1 UNION ALL SELECT s FROM t2 UNION ALL SELECT s FROM t3",
      "SELECT s FROM t1 INTERSECT SELECT s FROM t2 EXCEPT ALL SELECT s FROM t3",
      "SELECT s FROM t1 UNION (SELECT s FROM t2 INTERSECT SELECT s FROM t3) ORDER BY s LIMIT 3",
      "SELECT * FROM t ORDER BY a OFFSET 5 ROWS FETCH FIRST 10 ROWS ONLY",
      "SELECT user, product FROM Orders WHERE product IN (SELECT product FROM NewProducts)",
      "SELECT * FROM t WHERE EXISTS (SELECT 1 FROM u WHERE u.id = t.id) AND NOT EXISTS (SELECT 1 FROM v)",
      "SELECT (SELECT MAX(x) FROM u) AS m, t.* FROM t",
      "VALUES (1, 'a'), (2, 'b')",
      "INSERT INTO t VALUES (1, 'a', NULL), (2, 'b', TRUE)",
      "INSERT INTO t PARTITION (dt = '2024-01-01') (a, b) SELECT a, b FROM s",
      "INSERT INTO t /*+ OPTIONS('sink.parallelism' = '2') */ SELECT * FROM s",
      "EXECUTE INSERT INTO t SELECT * FROM s",
      "ALTER TABLE t SET ('first-event.rate' = '100000', 'next-event.rate' = '100000')",
      "ALTER TABLE IF EXISTS cat.db.t RESET ('k', 'j')",
      "ALTER TABLE t RENAME TO db.u",
      "ALTER TABLE IF EXISTS t RENAME a TO b",
      "ALTER TABLE t ADD c INT COMMENT 'c' FIRST",
      "ALTER TABLE t ADD (m STRING METADATA FROM 'topic' VIRTUAL AFTER a, d AS a + 1, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND, CONSTRAINT pk PRIMARY KEY (a) NOT ENFORCED)",
      "ALTER TABLE t MODIFY (a BIGINT NOT NULL AFTER b, PRIMARY KEY (a, b) NOT ENFORCED)",
      "ALTER TABLE t MODIFY WATERMARK FOR ts AS ts",
      "ALTER TABLE t DROP a",
      "ALTER TABLE t DROP (a, `b`)",
      "ALTER TABLE t DROP PRIMARY KEY",
      "ALTER TABLE t DROP CONSTRAINT pk",
      "ALTER TABLE t DROP WATERMARK",
      "ALTER VIEW v RENAME TO v2",
      "ALTER VIEW db.v AS SELECT a, COUNT(*) FROM t GROUP BY a",
      "ALTER TEMPORARY SYSTEM FUNCTION IF EXISTS f AS 'com.example.F' LANGUAGE JAVA",
      "EXPLAIN SELECT * FROM t",
      "CREATE CATALOG lake WITH ('type' = 'iceberg', 'catalog-type' = 'hadoop', 'warehouse' = 'file:///wh')",
      "CREATE CATALOG IF NOT EXISTS c1 WITH ('type' = 'generic_in_memory')",
      "CREATE CATALOG c2 COMMENT 'the lake''s' WITH ('type' = 'generic_in_memory')",
      "CREATE DATABASE IF NOT EXISTS lake.`stream` COMMENT 'the lake' WITH ('k' = 'v')",
      "CREATE DATABASE db1",
      "USE CATALOG lake",
      "USE lake.`stream`",
      "USE `catalog`",
      "DROP CATALOG IF EXISTS lake",
      "DROP DATABASE IF EXISTS lake.`stream` CASCADE",
      "DROP DATABASE db1",
      "SHOW CURRENT CATALOG",
      "SHOW CURRENT DATABASE",
      "SHOW DATABASES FROM lake",
      "SHOW TABLES FROM lake.`stream` NOT LIKE 'tmp%'",
      "SHOW TABLES LIKE 'a_c%'",
      "EXPLAIN CHANGELOG_MODE, ESTIMATED_COST SELECT a, COUNT(*) FROM t GROUP BY a",
      "EXPLAIN PLAN_ADVICE INSERT INTO s SELECT * FROM t",
      "EXPLAIN JSON_EXECUTION_PLAN STATEMENT SET BEGIN INSERT INTO a SELECT * FROM t; INSERT INTO b SELECT * FROM t; END",
      // --- expressions
      R"(SELECT CAST(a AS DECIMAL(10, 2)), TRY_CAST(b AS INT), CAST(c AS ROW<x INT, y ARRAY<STRING NOT NULL>>),
    CAST(d AS TIMESTAMP(3)), CAST(e AS VARCHAR), CAST(f AS MAP<STRING, DOUBLE>) FROM t)",
      R"(SELECT EXTRACT(YEAR FROM ts), FLOOR(ts TO HOUR), CEIL(ts TO DAY), FLOOR(x), POSITION('a' IN s),
    TRIM(BOTH ' ' FROM s), TRIM(LEADING FROM s), TRIM(s), SUBSTRING(s FROM 2 FOR 3), SUBSTRING(s, 2),
    OVERLAY(s PLACING 'xx' FROM 2 FOR 1), TIMESTAMPADD(HOUR, 2, ts), TIMESTAMPDIFF(DAY, a, b) FROM t)",
      R"(SELECT CURRENT_TIMESTAMP, LOCALTIMESTAMP, CURRENT_DATE, CURRENT_TIME, CURRENT_ROW_TIMESTAMP(), NOW(),
    PROCTIME(), TO_TIMESTAMP_LTZ(ts, 3), DATE '2024-01-01', TIME '12:00:00', TIMESTAMP '2024-01-01 00:00:00',
    TIMESTAMP_LTZ '2024-01-01 00:00:00.123' FROM t)",
      R"(SELECT INTERVAL '1 02:00:00' DAY TO SECOND, INTERVAL '1-2' YEAR TO MONTH, INTERVAL '5' SECOND(3),
    INTERVAL -'1' HOUR, INTERVAL '10' MINUTE, INTERVAL '3' DAY(3), INTERVAL '1:30' HOUR TO MINUTE FROM t)",
      R"(SELECT ARRAY[1, 2, 3], MAP['a', 1, 'b', 2], ROW(a, b), (a, b), arr[1], m['k'], r.f.g, arr[1].f,
    CARDINALITY(arr), `my fn`(a), cat.db.fn(b), x'0aFF', 'it''s', 1.5E3, 1.5, 42, -7, +3 FROM t)",
      R"(SELECT a IS NULL, b IS NOT NULL, c IS TRUE, d IS NOT FALSE, e IS UNKNOWN, a IS DISTINCT FROM b,
    a IS NOT DISTINCT FROM b, a BETWEEN 1 AND 2, a NOT BETWEEN SYMMETRIC 2 AND 1, a IN (1, 2), a NOT IN (3),
    s LIKE 'a%', s NOT LIKE 'a!%' ESCAPE '!', s SIMILAR TO 'a+', s NOT SIMILAR TO 'b', NOT a,
    a <> b, a != b, a % 2, a || b || c FROM t)",
      R"(SELECT CASE x WHEN 1 THEN 'one' WHEN 2 THEN 'two' END, CASE WHEN a THEN 1 ELSE 2 END,
    COALESCE(a, b), NULLIF(a, 0), IF(a > 0, 'p', 'n'), COUNT(DISTINCT a) FILTER (WHERE b > 0),
    LAG(a, 1) OVER (PARTITION BY k ORDER BY ts), SUM(a) OVER (ORDER BY ts ROWS UNBOUNDED PRECEDING),
    FIRST_VALUE(a) OVER (PARTITION BY k ORDER BY ts ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)
  FROM t)",
      "SELECT -(-1), - -a, 1 - -2, NOT NOT TRUE, (a + b) * c, a + b * c, UNKNOWN, NULL FROM t",
  };
  return kCorpus;
}

TEST(RoundTripTest, CorpusIsLargeEnough) { EXPECT_GE(Corpus().size(), 80u); }

TEST(RoundTripTest, ParseUnparseParseIsStable) {
  for (const std::string& sql : Corpus()) {
    auto first = ParseStatement(sql);
    ASSERT_TRUE(first.ok()) << sql << "\n" << first.status().ToString();
    std::string text1 = Unparse(**first);
    auto second = ParseStatement(text1);
    ASSERT_TRUE(second.ok()) << "unparsed text does not parse:\n" << text1 << "\n" << second.status().ToString();
    std::string text2 = Unparse(**second);
    EXPECT_EQ(text1, text2) << "from: " << sql;
    // The minimal parentheses must keep the tree: the fully parenthesized forms agree too.
    EXPECT_EQ(UnparseWithParentheses(**first), UnparseWithParentheses(**second)) << "from: " << sql;
  }
}

TEST(RoundTripTest, ExpressionsKeepTheirGrouping) {
  const char* kExprs[] = {
      "(a OR b) AND c",         "a OR b AND c",          "NOT (a AND b)",          "(NOT a) AND b",
      "(a = b) = c",            "a = (b = c)",           "(a + b) * c",            "a - (b - c)",
      "a - (-1)",               "-(-a)",                 "-(a + b)",               "(a || b) LIKE (c || d)",
      "(a BETWEEN 1 AND 2) = TRUE", "a BETWEEN (1 + 2) AND (3 * 4)", "(a IS NULL) IS NOT TRUE",
      "(a + 1)[2]",             "(a.b).c",               "(f(x)).y",               "NOT (a IN (1, 2))",
      "(NOT a) = b",            "a * (b / c) % d",       "x IS DISTINCT FROM (y = z)",
      "(a LIKE b) LIKE c",      "POSITION((a || b) IN c)", "+(-a)",                "a = -b",
  };
  for (const char* sql : kExprs) {
    auto first = ParseExpression(sql);
    ASSERT_TRUE(first.ok()) << sql << " " << first.status().ToString();
    std::string text = Unparse(**first);
    auto second = ParseExpression(text);
    ASSERT_TRUE(second.ok()) << text << " " << second.status().ToString();
    EXPECT_EQ(UnparseWithParentheses(**first), UnparseWithParentheses(**second)) << sql << " -> " << text;
    EXPECT_EQ(Unparse(**second), text);
  }
  auto minimal = ParseExpression("((a + b)) * (c) - (d * e)");
  ASSERT_TRUE(minimal.ok());
  EXPECT_EQ(Unparse(**minimal), "(`a` + `b`) * `c` - `d` * `e`");
}

TEST(RoundTripTest, WholeScriptRoundTrips) {
  std::string script;
  for (const std::string& sql : Corpus()) {
    script += sql + ";\n";
  }
  auto statements = ParseScript(script);
  ASSERT_TRUE(statements.ok()) << statements.status().ToString();
  EXPECT_EQ(statements->size(), Corpus().size());
}

}  // namespace
}  // namespace sluice::sql
