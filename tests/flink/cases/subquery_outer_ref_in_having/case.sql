-- An IN subquery correlated only through its HAVING (COUNT(*) > o.w); both sides retract.
CREATE TABLE o (id INT, k STRING, v INT, w INT) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/o.debezium.json', 'format' = 'debezium-json');
CREATE TABLE i (id INT, k STRING, g STRING, v INT) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/i.debezium.json', 'format' = 'debezium-json');
SELECT id FROM o WHERE o.k IN (SELECT i.k FROM i GROUP BY i.k HAVING COUNT(*) > o.w);
