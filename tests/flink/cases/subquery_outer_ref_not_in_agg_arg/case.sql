-- A correlated grouped NOT IN whose item aggregates an outer column (SUM(i.v * o.w)); NULLs on both sides, both sides retract.
CREATE TABLE o (id INT, k STRING, v INT, w INT) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/o.debezium.json', 'format' = 'debezium-json');
CREATE TABLE i (id INT, k STRING, g STRING, v INT) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/i.debezium.json', 'format' = 'debezium-json');
SELECT id FROM o WHERE o.v NOT IN (SELECT SUM(i.v * o.w) FROM i WHERE i.k = o.k GROUP BY i.g);
