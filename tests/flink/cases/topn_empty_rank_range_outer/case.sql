-- A rank range bounded inside (rn <= 3) and contradicted outside (rn > 4): no rows.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT * FROM (SELECT order_id, qty, rn FROM (SELECT order_id, qty, ROW_NUMBER() OVER (ORDER BY qty DESC) AS rn FROM orders) WHERE rn <= 3) WHERE rn > 4;
