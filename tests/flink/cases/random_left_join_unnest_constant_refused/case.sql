-- Random query 2011-189 (unnest), minimised: a LEFT JOIN UNNEST of a constant array. Flink 2.2.1's
-- planner fails with an internal "Type mismatch" (the unnested columns NOT NULL against their
-- nullable LEFT JOIN type); Sluice runs it (flink_differences.md#flinks-planning-failures).
CREATE TABLE t (id INT, k STRING) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
SELECT id, e
FROM t LEFT JOIN UNNEST(ARRAY['a', 'apple']) AS ux (e) ON TRUE;
