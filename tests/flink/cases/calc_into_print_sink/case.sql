-- INSERT of an insert-only query into a print sink.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
CREATE TABLE out_orders (order_id INT, customer STRING, amount DECIMAL(21, 2)) WITH ('connector' = 'print');
INSERT INTO out_orders SELECT order_id, customer, qty * price FROM orders WHERE qty > 2;
