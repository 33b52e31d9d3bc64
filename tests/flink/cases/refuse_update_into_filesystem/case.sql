-- Refused at planning: an updating query into an append-only filesystem sink.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
CREATE TABLE out_file (customer STRING, n BIGINT) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/out', 'format' = 'json');
INSERT INTO out_file SELECT customer, COUNT(*) FROM orders GROUP BY customer;
