-- Mini-batch ChangelogNormalize (Flink's ProcTimeMiniBatchDeduplicateKeepLastRowFunction over a
-- changelog): a CDC source with duplicates possible ('table.exec.source.cdc-events-duplicate') is
-- normalized per primary key; only the last change of each key in a bundle of 3 counts.
SET 'table.exec.mini-batch.enabled' = 'true';
SET 'table.exec.mini-batch.allow-latency' = '1 h';
SET 'table.exec.mini-batch.size' = '3';
SET 'table.exec.source.cdc-events-duplicate' = 'true';
CREATE TABLE products (
  id INT, name STRING, category STRING, weight DECIMAL(10, 2), PRIMARY KEY (id) NOT ENFORCED
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/products.debezium.json', 'format' = 'debezium-json');
SELECT id, name, category, weight FROM products;
