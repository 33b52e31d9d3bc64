-- CASE and COALESCE of DECIMAL(38, 2) and DECIMAL(10, 4): Calcite leastRestrictive gives DECIMAL(38, 2).
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT order_id, CASE WHEN qty > 2 THEN CAST(price AS DECIMAL(38, 2)) ELSE CAST(price AS DECIMAL(10, 4)) END AS c, COALESCE(CAST(price AS DECIMAL(38, 2)), CAST(1.5 AS DECIMAL(10, 4))) AS co FROM orders;
