-- Top-N without the row number in the output (Flink's no-ranking-output optimisation).
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT product, order_id, price FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY product ORDER BY price ASC) AS rn FROM orders WHERE product IS NOT NULL
) WHERE rn <= 1;
