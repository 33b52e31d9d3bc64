-- Top-N (Rank): the two largest orders per customer, with the row number.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT customer, order_id, qty, rn FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY customer ORDER BY qty DESC) AS rn FROM orders WHERE qty IS NOT NULL
) WHERE rn <= 2;
