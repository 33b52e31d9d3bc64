-- URL_ENCODE, URL_DECODE, JSON_QUOTE, JSON_UNQUOTE, PARSE_URL over a small input.
CREATE TABLE t (id INT, s STRING, p STRING, n INT)
WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/input.json', 'format' = 'json');
SELECT id, URL_ENCODE(s) AS ue, URL_DECODE(URL_ENCODE(s)) AS ud, URL_DECODE(CONCAT(p, '%2')) AS ud2,
       JSON_QUOTE(s) AS jq, JSON_UNQUOTE(JSON_QUOTE(s)) AS ju, JSON_UNQUOTE(CONCAT('"', p, '"')) AS ju2,
       PARSE_URL(CONCAT('http://u@h', CAST(n AS STRING), '.com:8/', s, '?k=', p, '#r'), 'HOST') AS host,
       PARSE_URL(CONCAT('http://h.com/', s, '?k=', p, '&j=2'), 'QUERY', 'k') AS qk,
       PARSE_URL(CONCAT('https://h.com/x?', p), 'QUERY') AS q, PARSE_URL(CONCAT('https://h.com/x?', p), 'FILE') AS f,
       PARSE_URL('http://u:p@facebook.com:80/p1/p.php?k1=v1#Ref1', 'AUTHORITY') AS a,
       PARSE_URL('http://u:p@facebook.com:80/p1/p.php?k1=v1#Ref1', 'USERINFO') AS ui,
       PARSE_URL('http://u:p@facebook.com:80/p1/p.php?k1=v1#Ref1', 'REF') AS rf,
       PARSE_URL('http://u:p@facebook.com:80/p1/p.php?k1=v1#Ref1', 'PROTOCOL') AS pr
FROM t;
