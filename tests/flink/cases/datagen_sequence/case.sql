-- A bounded datagen source of sequences (deterministic), aggregated.
CREATE TABLE gen (id BIGINT, k INT) WITH (
  'connector' = 'datagen', 'number-of-rows' = '20',
  'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '20',
  'fields.k.kind' = 'sequence', 'fields.k.start' = '101', 'fields.k.end' = '120'
);
SELECT id % 3 AS bucket, COUNT(*) AS n, SUM(k) AS total FROM gen GROUP BY id % 3;
