-- GroupAggregate over a changelog source (debezium-json): MAX survives the retraction of its extreme,
-- an emptied group is deleted.
CREATE TABLE products (
  id INT, name STRING, category STRING, weight DECIMAL(10, 2)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/products.debezium.json', 'format' = 'debezium-json');
SELECT category, COUNT(*) AS n, MAX(weight) AS heaviest, SUM(weight) AS total FROM products GROUP BY category;
