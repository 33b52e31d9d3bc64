-- Batch INSERT of a join and a Top-N into json filesystem sinks in one statement set.
CREATE TABLE t (
  id INT, k STRING, g INT, v INT, x DOUBLE, s STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
CREATE TABLE u (
  id INT, k STRING, w INT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/u.json', 'format' = 'json');
CREATE TABLE out_join (id INT, uid INT, k STRING, w INT) WITH ('connector' = 'filesystem', 'path' = '${OUT_DIR}/out_join', 'format' = 'json');
CREATE TABLE out_top (id INT, k STRING, v INT) WITH ('connector' = 'filesystem', 'path' = '${OUT_DIR}/out_top', 'format' = 'json');
SET 'execution.runtime-mode' = 'batch';
EXECUTE STATEMENT SET BEGIN
  INSERT INTO out_join SELECT t.id, u.id, t.k, u.w FROM t LEFT JOIN u ON t.k = u.k;
  INSERT INTO out_top SELECT id, k, v FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY v DESC NULLS LAST, id) AS rn FROM t) WHERE rn = 1;
END;
