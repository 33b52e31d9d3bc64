-- A correlated COUNT whose argument reads an outer column (COUNT(i.v * o.w)): 0, not NULL, without rows; both sides retract.
CREATE TABLE o (id INT, k STRING, v INT, w INT) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/o.debezium.json', 'format' = 'debezium-json');
CREATE TABLE i (id INT, k STRING, g STRING, v INT) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/i.debezium.json', 'format' = 'debezium-json');
SELECT o.id, (SELECT COUNT(i.v * o.w) FROM i WHERE i.k = o.k) AS m FROM o;
