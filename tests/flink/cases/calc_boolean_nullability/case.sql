-- AND/OR with NULL operands are nullable (b AND TRUE is NULL for a NULL b).
CREATE TABLE t (b BOOLEAN, v INT) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/data.json', 'format' = 'json');
SELECT b AND TRUE AS x, b OR v > 5 AS y, TRUE AND b AS z, b OR FALSE AS w FROM t;
