-- Refused while parsing: a reserved word as an alias (the position is the statement's line in Flink, the file's in Sluice).
SELECT 1 AS unknown;
