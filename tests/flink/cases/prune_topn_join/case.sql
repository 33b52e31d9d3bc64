-- Nexmark q9's shape: Top-1 per key over a join; the columns not read above (the customer's tier and
-- ts, the order's product) are pruned below the join, so neither the join nor the Rank stores them.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
CREATE TABLE customers (
  customer STRING, region STRING, tier INT, ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/customers.json', 'format' = 'json');
SELECT customer, region, order_id, qty FROM (
  SELECT c.*, o.order_id, o.qty, o.price,
    ROW_NUMBER() OVER (PARTITION BY c.customer ORDER BY o.price DESC, o.order_id ASC) AS rn
  FROM customers AS c, orders AS o WHERE c.customer = o.customer
) WHERE rn <= 1;
