-- UNNEST of two arrays WITH ORDINALITY.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT order_id, x, y, n FROM orders CROSS JOIN UNNEST(ARRAY[order_id, qty], ARRAY[customer]) WITH ORDINALITY AS u(x, y, n) WHERE order_id < 3;
