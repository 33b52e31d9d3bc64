-- A scalar subquery in an aggregation's SELECT list correlated only by an aggregate's argument reading a GROUP BY column.
CREATE TABLE o (id INT, k STRING, v INT, w INT) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/o.debezium.json', 'format' = 'debezium-json');
CREATE TABLE i (id INT, k STRING, g STRING, v INT) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/i.debezium.json', 'format' = 'debezium-json');
SELECT w, (SELECT SUM(i.v * o.w) FROM i) AS s FROM o GROUP BY w;
