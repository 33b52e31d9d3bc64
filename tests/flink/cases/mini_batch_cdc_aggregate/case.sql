-- Mini-batch over a CDC source (debezium-json, no primary key): Flink plans no MiniBatchAssigner over
-- a changelog scan's DropUpdateBefore... or does it: the plan shape is compared.
SET 'table.exec.mini-batch.enabled' = 'true';
SET 'table.exec.mini-batch.allow-latency' = '1 h';
SET 'table.exec.mini-batch.size' = '3';
SET 'table.optimizer.agg-phase-strategy' = 'ONE_PHASE';
CREATE TABLE products (
  id INT, name STRING, category STRING, weight DECIMAL(10, 2)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/products.debezium.json', 'format' = 'debezium-json');
SELECT category, COUNT(*) AS n FROM products GROUP BY category;
