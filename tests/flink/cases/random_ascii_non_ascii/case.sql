-- ASCII of a non-ASCII first character: Flink 2.2.1 returns the first UTF-8 byte as a Java byte
-- (negative); found by tests/flink/random_queries.py, random query 2012-211 (minimised by hand)
CREATE TABLE t (
  id INT, s STRING
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
SELECT id, s, ASCII(s) AS c FROM t;
