-- A sink PRIMARY KEY that differs from the query's upsert key: Flink adds a SinkUpsertMaterializer.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
CREATE TABLE out_by_units (units INT, customer STRING, PRIMARY KEY (units) NOT ENFORCED) WITH ('connector' = 'print');
INSERT INTO out_by_units SELECT SUM(qty), customer FROM orders GROUP BY customer;
