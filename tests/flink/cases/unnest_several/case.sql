-- UNNEST of two arrays of different lengths in one CROSS JOIN.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT order_id, x, y FROM orders CROSS JOIN UNNEST(ARRAY[order_id, qty], ARRAY[customer, product, 'z']) AS u(x, y) WHERE order_id < 3;
