-- A correlated grouped IN whose item reads an outer column (MAX(i.v) + o.w); both sides retract.
CREATE TABLE o (id INT, k STRING, v INT, w INT) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/o.debezium.json', 'format' = 'debezium-json');
CREATE TABLE i (id INT, k STRING, g STRING, v INT) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/i.debezium.json', 'format' = 'debezium-json');
SELECT id FROM o WHERE o.v IN (SELECT MAX(i.v) + o.w FROM i WHERE i.k = o.k GROUP BY i.g);
