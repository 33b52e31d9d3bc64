-- TIMESTAMPDIFF in months, quarters and years (Calcite's subtractMonths: clamped month ends count) over
-- TIMESTAMP and DATE columns, and EXTRACT of MILLISECOND / MICROSECOND / NANOSECOND (the fraction only).
CREATE TABLE t (id INT, a TIMESTAMP(3), b TIMESTAMP(3), da DATE, db DATE)
WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/input.json', 'format' = 'json');
SELECT id, TIMESTAMPDIFF(MONTH, a, b) AS m, TIMESTAMPDIFF(MONTH, b, a) AS mr, TIMESTAMPDIFF(QUARTER, a, b) AS q,
       TIMESTAMPDIFF(YEAR, a, b) AS y, TIMESTAMPDIFF(MONTH, da, db) AS dm, TIMESTAMPDIFF(MONTH, db, da) AS dmr,
       TIMESTAMPDIFF(QUARTER, da, db) AS dq, TIMESTAMPDIFF(YEAR, da, db) AS dy, TIMESTAMPDIFF(DAY, a, b) AS d,
       EXTRACT(MILLISECOND FROM a) AS ms, EXTRACT(MICROSECOND FROM b) AS us, EXTRACT(NANOSECOND FROM a) AS ns,
       EXTRACT(SECOND FROM b) AS s
FROM t;
