-- A correlated EXISTS whose HAVING aggregates an outer column (SUM(i.v * o.w)); both sides retract.
CREATE TABLE o (id INT, k STRING, v INT, w INT) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/o.debezium.json', 'format' = 'debezium-json');
CREATE TABLE i (id INT, k STRING, g STRING, v INT) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/i.debezium.json', 'format' = 'debezium-json');
SELECT id FROM o WHERE EXISTS (SELECT 1 FROM i WHERE i.k = o.k GROUP BY i.g HAVING SUM(i.v * o.w) > 10);
