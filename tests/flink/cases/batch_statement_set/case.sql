-- Batch statement set writing an aggregation and an ordered projection into two print sinks (inserts only).
CREATE TABLE t (
  id INT, k STRING, g INT, v INT, x DOUBLE, s STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
CREATE TABLE out_counts (k STRING, n BIGINT, sv INT) WITH ('connector' = 'print');
CREATE TABLE out_rows (id INT, v INT) WITH ('connector' = 'print');
SET 'execution.runtime-mode' = 'batch';
SET 'table.optimizer.agg-phase-strategy' = 'ONE_PHASE';
EXECUTE STATEMENT SET BEGIN
  INSERT INTO out_counts SELECT k, COUNT(*), SUM(v) FROM t GROUP BY k;
  INSERT INTO out_rows SELECT id, v FROM t WHERE v > 8;
END;
