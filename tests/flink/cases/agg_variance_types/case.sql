-- VAR_POP/VAR_SAMP/STDDEV_POP/STDDEV_SAMP keep the argument's type (INT: integer arithmetic, truncated; DECIMAL(10, 2): DECIMAL(38, 6)), as Calcite's reduction in Flink.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT customer, VAR_POP(qty) AS vp, VAR_SAMP(qty) AS vs, STDDEV_POP(qty) AS sp, STDDEV_SAMP(qty) AS ss, VAR_POP(price) AS vpd, STDDEV_SAMP(CAST(qty AS DOUBLE)) AS ssd FROM orders GROUP BY customer;
