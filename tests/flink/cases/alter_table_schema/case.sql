-- ALTER TABLE's schema actions on a catalog table before a query reads it: ADD columns (FIRST, AFTER, a computed one), RENAME a column (json reads the field by its new name: NULL), MODIFY a type, ADD a watermark and a key, DROP a column, RENAME the table.
CREATE TABLE orders (
  order_id INT, customer STRING, price DECIMAL(10, 2)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
ALTER TABLE orders ADD (qty INT, product STRING AFTER customer, total AS qty * 2 FIRST);
ALTER TABLE orders RENAME customer TO buyer;
ALTER TABLE orders MODIFY (price DECIMAL(12, 3), qty BIGINT AFTER order_id);
ALTER TABLE orders ADD (ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND);
ALTER TABLE orders DROP buyer;
ALTER TABLE orders RENAME TO orders2;
SELECT * FROM orders2;
