-- Mini-batch LEFT JOIN whose right side has a unique key (the PRIMARY KEY of a debezium-json source)
-- that is not the join key: Flink's EXPLAIN says rightInputSpec=[HasUniqueKey] (that side's bundle is
-- folded per unique key within each join key: the last change of each product counts, a -U/+U pair
-- is applied without the orders' NULL-padded rows in between).
SET 'table.exec.mini-batch.enabled' = 'true';
SET 'table.exec.mini-batch.allow-latency' = '1 h';
SET 'table.exec.mini-batch.size' = '3';
CREATE TABLE products (
  id INT, name STRING, category STRING, weight DECIMAL(10, 2), PRIMARY KEY (id) NOT ENFORCED
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/products.debezium.json', 'format' = 'debezium-json');
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT o.order_id, o.product, p.id, p.category, p.weight FROM orders AS o LEFT JOIN products AS p ON o.product = p.name;
