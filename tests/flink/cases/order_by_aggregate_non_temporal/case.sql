-- ORDER BY an aggregate without LIMIT in streaming mode, with the non-temporal sort enabled (over an updating aggregate).
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SET '__table.exec.sort.non-temporal.enabled__' = 'true';
SELECT customer, SUM(qty) AS s FROM orders GROUP BY customer ORDER BY COUNT(*) DESC, customer;
