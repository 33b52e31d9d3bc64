-- A scalar subquery in an aggregation's SELECT list aggregating a GROUP BY column of the outer query; both sides retract.
CREATE TABLE o (id INT, k STRING, v INT, w INT) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/o.debezium.json', 'format' = 'debezium-json');
CREATE TABLE i (id INT, k STRING, g STRING, v INT) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/i.debezium.json', 'format' = 'debezium-json');
SELECT k, w, (SELECT SUM(i.v * o.w) FROM i WHERE i.k = o.k) AS s FROM o GROUP BY k, w;
