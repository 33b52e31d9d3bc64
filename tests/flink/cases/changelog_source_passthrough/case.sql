-- A debezium-json changelog read and filtered as it is (no aggregate).
CREATE TABLE products (
  id INT, name STRING, category STRING, weight DECIMAL(10, 2)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/products.debezium.json', 'format' = 'debezium-json');
SELECT id, UPPER(name) AS name, weight * 2 AS double_weight FROM products WHERE category = 'fruit';
