-- A correlated scalar subquery grouped by an outer column, which its item then reads (COUNT(*) + o.w); both sides retract.
CREATE TABLE o (id INT, k STRING, v INT, w INT) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/o.debezium.json', 'format' = 'debezium-json');
CREATE TABLE i (id INT, k STRING, g STRING, v INT) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/i.debezium.json', 'format' = 'debezium-json');
SELECT o.id, (SELECT COUNT(*) + o.w FROM i WHERE i.k = o.k GROUP BY o.w) AS m FROM o;
