-- Mini-batch FULL JOIN over a debezium-json source with a PRIMARY KEY that is the join key: Flink's
-- EXPLAIN says leftInputSpec=[JoinKeyContainsUniqueKey] (the left side's state and bundle are keyed by
-- it: per key only the last change of a bundle counts, and a -U/+U pair is applied without the
-- orders' NULL-padded rows in between); the orders have no key (NoUniqueKey). A print sink takes
-- update-before rows, so the join's input keeps them (a SELECT's plan on Flink drops them).
SET 'table.exec.mini-batch.enabled' = 'true';
SET 'table.exec.mini-batch.allow-latency' = '1 h';
SET 'table.exec.mini-batch.size' = '3';
CREATE TABLE products (
  id INT, name STRING, category STRING, weight DECIMAL(10, 2), PRIMARY KEY (id) NOT ENFORCED
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/products.debezium.json', 'format' = 'debezium-json');
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
CREATE TABLE out_joined (id INT, name STRING, weight DECIMAL(10, 2), order_id INT, qty INT) WITH ('connector' = 'print');
INSERT INTO out_joined SELECT p.id, p.name, p.weight, o.order_id, o.qty FROM products AS p FULL JOIN orders AS o ON p.id = o.order_id;
