CREATE OR REPLACE TEMPORARY VIEW dynalint_01700000000000_aaaa (`Item` STRUCT<`PK`: STRING, `SK`: STRING, `likeTally`: STRING>)
USING json OPTIONS (path 's3://b/p/AWSDynamoDB/01700000000000-aaaa/data/');

CREATE OR REPLACE TEMPORARY VIEW dynalint_01700000000001_bbbb (`NewImage` STRUCT<`PK`: STRING, `SK`: STRING, `likeTally`: STRING>, `OldImage` STRUCT<`PK`: STRING, `SK`: STRING, `likeTally`: STRING>)
USING json OPTIONS (path 's3://b/p/AWSDynamoDB/01700000000001-bbbb/data/');

WITH images AS (
  SELECT 0 AS v, 1 AS sign, `Item` AS img FROM dynalint_01700000000000_aaaa
  UNION ALL
  SELECT 1 AS v, 1 AS sign, `NewImage` AS img FROM dynalint_01700000000001_bbbb WHERE `NewImage` IS NOT NULL
  UNION ALL
  SELECT 1 AS v, -1 AS sign, `OldImage` AS img FROM dynalint_01700000000001_bbbb WHERE `OldImage` IS NOT NULL
),
items AS (
  SELECT v, sign,
    get_json_object(img.`PK`, '$.S') AS pk_s,
    get_json_object(img.`PK`, '$.N') AS pk_n,
    get_json_object(img.`PK`, '$.B') AS pk_b,
    get_json_object(img.`SK`, '$.S') AS sk,
    img.`likeTally` AS counter,
    img.`likeTally` AS shard_raw,
    get_json_object(img.`likeTally`, '$.N') AS shard_n
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
  COALESCE(SUM(sign * CAST(shard_n AS DOUBLE)) FILTER (WHERE role = 'shard' AND shard_n IS NOT NULL), 0) AS shard_sum,
  COALESCE(SUM(sign) FILTER (WHERE role = 'shard' AND shard_raw IS NOT NULL AND shard_n IS NULL), 0) AS bad_shards
FROM roles
WHERE role IS NOT NULL
GROUP BY pk_s, pk_n, pk_b;
