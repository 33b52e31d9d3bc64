-- FIRST_VALUE/LAST_VALUE over a changelog source (retractions).
CREATE TABLE products (
  id INT, name STRING, category STRING, weight DECIMAL(10, 2)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/products.debezium.json', 'format' = 'debezium-json');
SELECT category, FIRST_VALUE(name) AS first_name, LAST_VALUE(name) AS last_name, MIN(weight) AS lightest FROM products GROUP BY category;
