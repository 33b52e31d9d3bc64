-- A correlated COUNT whose FILTER reads an outer column; both sides retract.
CREATE TABLE o (id INT, k STRING, v INT, w INT) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/o.debezium.json', 'format' = 'debezium-json');
CREATE TABLE i (id INT, k STRING, g STRING, v INT) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/i.debezium.json', 'format' = 'debezium-json');
SELECT id, (SELECT COUNT(*) FILTER (WHERE i.v > o.w) FROM i WHERE i.k = o.k) AS c FROM o;
