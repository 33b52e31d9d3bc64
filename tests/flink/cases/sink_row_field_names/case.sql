-- A ROW built by ROW(...) (fields EXPR$0, EXPR$1) into a sink column ROW<a INT, b STRING>: Flink matches
-- ROW types by position, not by field name.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
CREATE TABLE out_rows (order_id INT, r ROW<a INT, b STRING>) WITH ('connector' = 'print');
INSERT INTO out_rows SELECT order_id, ROW(qty, product) FROM orders WHERE order_id <= 3;
