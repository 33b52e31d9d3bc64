-- A filter over the ChangelogNormalize of a CDC source: Flink 2.2.1 evaluates it inside the
-- normalization (ChangelogNormalize(key=[id], condition=[>(a, 10)])): a key's first passing row is +I
-- (id 1's second event, id 4's update from a NULL a), a change that still passes -U/+U, one that stops
-- passing (or whose condition is NULL: id 2) -D of the last emitted row, after which the key is
-- forgotten (id 1 comes back as +I; id 2's delete emits nothing); a delete of a passing row -D.
SET 'table.exec.source.cdc-events-duplicate' = 'true';
CREATE TABLE t (
  id INT NOT NULL, a INT, s STRING, PRIMARY KEY (id) NOT ENFORCED
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'debezium-json');
SELECT id, a, s FROM t WHERE a > 10;
