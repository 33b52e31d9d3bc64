-- A statement set writing one insert-only and one updating query into two print sinks.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
CREATE TABLE out_big (order_id INT, qty INT) WITH ('connector' = 'print');
CREATE TABLE out_counts (product STRING, n BIGINT) WITH ('connector' = 'print');
EXECUTE STATEMENT SET BEGIN
  INSERT INTO out_big SELECT order_id, qty FROM orders WHERE qty >= 4;
  INSERT INTO out_counts SELECT product, COUNT(*) FROM orders GROUP BY product;
END;
