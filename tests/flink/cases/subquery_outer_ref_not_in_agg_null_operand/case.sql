-- NOT IN of a grouped subquery aggregating an outer column, with NULL operands: o 7's v is NULL with groups (UNKNOWN: out), o 8's v is NULL without any (TRUE).
CREATE TABLE o (id INT, k STRING, v INT, w INT) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/o.debezium.json', 'format' = 'debezium-json');
CREATE TABLE i (id INT, k STRING, g STRING, v INT) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/i.debezium.json', 'format' = 'debezium-json');
SELECT id FROM o WHERE o.v NOT IN (SELECT SUM(i.v * o.w) FROM i WHERE i.k = o.k GROUP BY i.g);
