-- Mini-batch regular join over an updating input (a group aggregate's -U/+U, no unique key on the
-- join's input side that Flink's bundles fold by), bundle larger than the input.
SET 'table.exec.mini-batch.enabled' = 'true';
SET 'table.exec.mini-batch.allow-latency' = '1 h';
SET 'table.exec.mini-batch.size' = '1000';
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
CREATE TABLE customers (
  customer STRING, region STRING, tier INT, ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/customers.json', 'format' = 'json');
SELECT c.region, o.units FROM (SELECT customer, SUM(qty) AS units FROM orders GROUP BY customer) AS o
  LEFT JOIN customers AS c ON o.customer = c.customer;
