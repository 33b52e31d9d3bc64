-- An updating aggregate into a print sink with a PRIMARY KEY equal to the upsert key.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
CREATE TABLE out_totals (customer STRING, units INT, PRIMARY KEY (customer) NOT ENFORCED) WITH ('connector' = 'print');
INSERT INTO out_totals SELECT customer, SUM(qty) FROM orders GROUP BY customer;
