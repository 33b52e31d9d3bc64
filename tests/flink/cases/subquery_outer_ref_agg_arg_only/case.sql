-- A scalar subquery correlated only through its aggregate's argument (SUM(i.v * o.w), no WHERE); both sides retract.
CREATE TABLE o (id INT, k STRING, v INT, w INT) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/o.debezium.json', 'format' = 'debezium-json');
CREATE TABLE i (id INT, k STRING, g STRING, v INT) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/i.debezium.json', 'format' = 'debezium-json');
SELECT o.id, (SELECT SUM(i.v * o.w) FROM i) AS m FROM o;
