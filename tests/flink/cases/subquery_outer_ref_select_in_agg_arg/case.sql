-- A correlated grouped IN in the SELECT list whose item aggregates an outer column (a mark join); both sides retract.
CREATE TABLE o (id INT, k STRING, v INT, w INT) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/o.debezium.json', 'format' = 'debezium-json');
CREATE TABLE i (id INT, k STRING, g STRING, v INT) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/i.debezium.json', 'format' = 'debezium-json');
SELECT id, o.v IN (SELECT SUM(i.v * o.w) FROM i WHERE i.k = o.k GROUP BY i.g) AS b FROM o;
