-- NOT IN of a subquery whose item reads an outer column, with NULL operands: o 7's v is NULL with subquery rows (UNKNOWN: out), o 8's v is NULL without any (NOT IN of an empty subquery: TRUE).
CREATE TABLE o (id INT, k STRING, v INT, w INT) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/o.debezium.json', 'format' = 'debezium-json');
CREATE TABLE i (id INT, k STRING, g STRING, v INT) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/i.debezium.json', 'format' = 'debezium-json');
SELECT id FROM o WHERE o.v NOT IN (SELECT i.v + o.w FROM i WHERE i.k = o.k);
