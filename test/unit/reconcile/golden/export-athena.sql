CREATE EXTERNAL TABLE IF NOT EXISTS dynalint_01700000000000_aaaa (
  item struct<pk:string,sk:string,liketally:string>
)
ROW FORMAT SERDE 'org.openx.data.jsonserde.JsonSerDe'
LOCATION 's3://b/p/AWSDynamoDB/01700000000000-aaaa/data/';

CREATE EXTERNAL TABLE IF NOT EXISTS dynalint_01700000000001_bbbb (
  newimage struct<pk:string,sk:string,liketally:string>,
  oldimage struct<pk:string,sk:string,liketally:string>
)
ROW FORMAT SERDE 'org.openx.data.jsonserde.JsonSerDe'
LOCATION 's3://b/p/AWSDynamoDB/01700000000001-bbbb/data/';

WITH images AS (
  SELECT 0 AS v, 1 AS sign, item AS img FROM dynalint_01700000000000_aaaa
  UNION ALL
  SELECT 1 AS v, 1 AS sign, newimage AS img FROM dynalint_01700000000001_bbbb WHERE newimage IS NOT NULL
  UNION ALL
  SELECT 1 AS v, -1 AS sign, oldimage AS img FROM dynalint_01700000000001_bbbb WHERE oldimage IS NOT NULL
),
items AS (
  SELECT v, sign,
    json_extract_scalar(img.pk, '$.S') AS pk_s,
    json_extract_scalar(img.pk, '$.N') AS pk_n,
    json_extract_scalar(img.pk, '$.B') AS pk_b,
    json_extract_scalar(img.sk, '$.S') AS sk,
    img.liketally AS counter,
    img.liketally AS shard_raw,
    json_extract_scalar(img.liketally, '$.N') AS shard_n
  FROM images
),
roles AS (
  SELECT *, CASE WHEN sk = 'META' THEN 'parent' WHEN substr(sk, 1, 5) = 'LIKE#' THEN 'child' END AS role FROM items
)
SELECT pk_s, pk_n, pk_b,
  COALESCE(SUM(sign) FILTER (WHERE role = 'parent'), 0) AS parent,
  max_by(COALESCE(counter, ''), v) FILTER (WHERE role = 'parent' AND sign = 1) AS counter,
  COALESCE(SUM(sign) FILTER (WHERE role = 'child'), 0) AS children,
  COALESCE(SUM(sign) FILTER (WHERE role = 'shard'), 0) AS shards,
  COALESCE(SUM(sign * CAST(shard_n AS double)) FILTER (WHERE role = 'shard' AND shard_n IS NOT NULL), 0) AS shard_sum,
  COALESCE(SUM(sign) FILTER (WHERE role = 'shard' AND shard_raw IS NOT NULL AND shard_n IS NULL), 0) AS bad_shards
FROM roles
WHERE role IS NOT NULL
GROUP BY pk_s, pk_n, pk_b;
