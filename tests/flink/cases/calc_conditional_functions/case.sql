-- IF, CASE with mixed types, COALESCE over several types, GREATEST/LEAST, IS DISTINCT FROM.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT order_id, IF(qty > 2, 'many', 'few') AS amount, CASE qty WHEN 1 THEN 1.5 WHEN 2 THEN 2 ELSE NULL END AS c,
       COALESCE(qty, order_id * 10) AS q, GREATEST(qty, 3) AS g, LEAST(price, 1.2) AS l, GREATEST(qty, price) AS gd, GREATEST(customer, 'bob') AS gs, LEAST(ts, TIMESTAMP '2026-08-15 10:02:00') AS lt, GREATEST(qty, 2, 4) AS three, qty IS DISTINCT FROM 2 AS d2
FROM orders;
