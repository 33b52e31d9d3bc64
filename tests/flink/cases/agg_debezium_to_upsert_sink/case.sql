-- A changelog source aggregated into a print sink with a primary key.
CREATE TABLE products (
  id INT, name STRING, category STRING, weight DECIMAL(10, 2)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/products.debezium.json', 'format' = 'debezium-json');
CREATE TABLE out_categories (category STRING, n BIGINT, total DECIMAL(38, 2), PRIMARY KEY (category) NOT ENFORCED) WITH ('connector' = 'print');
INSERT INTO out_categories SELECT category, COUNT(*), SUM(weight) FROM products GROUP BY category;
