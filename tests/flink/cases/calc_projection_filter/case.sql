-- Calc: projection, arithmetic, CASE and a filter over an insert-only file source.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT order_id, UPPER(customer) AS who, qty * price AS amount, qty + 1 AS next_qty,
       CASE WHEN qty >= 4 THEN 'big' WHEN qty IS NULL THEN 'none' ELSE 'small' END AS size
FROM orders WHERE order_id <> 3 AND (qty IS NULL OR qty > 1);
