-- TIMESTAMPDIFF of MONTH, YEAR, QUARTER (and DAY) as Flink 2.2.1 computes them (Calcite's subtractMonths: one month
-- less when the day lands and the time of day is earlier; not symmetric); random query 2036-60.
CREATE TABLE t (id INT, ts TIMESTAMP(3)) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
SELECT id, ts, TIMESTAMPDIFF(MONTH, TIMESTAMP '2026-08-15 10:00:19', ts) AS mo, TIMESTAMPDIFF(MONTH, ts, TIMESTAMP '2026-08-15 10:00:19') AS mo2,
  TIMESTAMPDIFF(YEAR, TIMESTAMP '2026-08-15 10:00:19', ts) AS yr, TIMESTAMPDIFF(QUARTER, TIMESTAMP '2026-08-15 10:00:19', ts) AS qu,
  TIMESTAMPDIFF(DAY, TIMESTAMP '2026-08-15 10:00:19', ts) AS dy,
  TIMESTAMPDIFF(MONTH, TIMESTAMP '2026-01-31 00:00:00', ts) AS from_jan31,
  TIMESTAMPDIFF(YEAR, TIMESTAMP '2020-02-29 00:00:00', ts) AS from_leap, TIMESTAMPDIFF(MONTH, ts, TIMESTAMP '2026-01-31 00:00:00') AS to_jan31 FROM t;
