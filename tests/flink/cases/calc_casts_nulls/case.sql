-- Calc: casts between numeric, string and temporal types, NULL handling.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT order_id, CAST(qty AS DOUBLE) / 4 AS quarter, CAST(price AS STRING) AS price_text,
       COALESCE(product, 'unknown') AS product, CAST(ts AS DATE) AS d, CAST(ts AS TIME) AS t,
       CAST(order_id AS DECIMAL(5, 1)) AS id_dec, TRY_CAST(customer AS INT) AS bad_int,
       NULLIF(qty, 1) AS not_one, qty IS NULL AS missing
FROM orders;
