-- A scalar subquery in an aggregation's SELECT list correlated by a non-equality on a GROUP BY column (a value generator over the aggregate's rows).
CREATE TABLE o (id INT, k STRING, v INT, w INT) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/o.debezium.json', 'format' = 'debezium-json');
CREATE TABLE i (id INT, k STRING, g STRING, v INT) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/i.debezium.json', 'format' = 'debezium-json');
SELECT k, w, (SELECT SUM(i.v) FROM i WHERE i.k = o.k AND i.v > o.w) AS s FROM o GROUP BY k, w;
