-- What Sluice's INSERT ... ON CONFLICT DO DEDUPLICATE (Flink 2.3) keeps of Flink 2.2.1: the same INSERT
-- without the clause, whose PRIMARY KEY (store_id) is not the query's upsert key (store_id, currency),
-- gets Flink 2.2.1's SinkUpsertMaterializer; DO DEDUPLICATE plans that same materializer
-- (tests/sql/updating/on_conflict.test). The HAVING retracts SG-1's SGD row, an older row of its key,
-- then the USD update retracts the latest one. Flink 2.2.1 has no ON CONFLICT, and refuses the clause
-- on a print sink in 2.3 (a retract sink), so the clause itself is checked in the .test only.
CREATE TABLE lines (store_id STRING, currency STRING, amount BIGINT, ts TIMESTAMP(3))
WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/store_lines.json', 'format' = 'json');
CREATE TABLE by_store (store_id STRING, currency STRING, sales BIGINT, PRIMARY KEY (store_id) NOT ENFORCED)
WITH ('connector' = 'print');
INSERT INTO by_store SELECT store_id, currency, SUM(amount) FROM lines GROUP BY store_id, currency
HAVING SUM(amount) > 0;
