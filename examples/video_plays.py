"""Play counts on videos, as in "DynamoDB atomic counters": ADD, sharding, and conditional updates."""
import random

import boto3

client = boto3.client("dynamodb")
SHARDS = 8


def record_play(video_id: str) -> None:
    """Safe: an atomic counter. ADD starts a missing play_count at 0; no read first."""
    client.update_item(
        TableName="Social",
        Key={"PK": {"S": f"VID#{video_id}"}, "SK": {"S": "STATS#TOTAL"}},
        UpdateExpression="ADD play_count :one",
        ExpressionAttributeValues={":one": {"N": "1"}},
    )


def record_play_sharded(video_id: str) -> None:
    """Safe: a viral video spreads its writes over STATS#TOTAL#0..N and sums them on read."""
    shard = random.randrange(SHARDS)
    client.update_item(
        TableName="Social",
        Key={"PK": {"S": f"VID#{video_id}"}, "SK": {"S": f"STATS#TOTAL#{shard}"}},
        UpdateExpression="ADD play_count :one",
        ExpressionAttributeValues={":one": {"N": "1"}},
    )


def set_play_count_exactly(video_id: str, current: int) -> None:
    """Safe: idempotent, because the condition is on the attribute being changed."""
    client.update_item(
        TableName="Social",
        Key={"PK": {"S": f"VID#{video_id}"}, "SK": {"S": "STATS#TOTAL"}},
        UpdateExpression="SET play_count = :next",
        ConditionExpression="play_count = :current",
        ExpressionAttributeValues={":next": {"N": str(current + 1)}, ":current": {"N": str(current)}},
    )


def record_play_with_set(video_id: str) -> None:
    """Broken: SET x = x + :one fails on the first play, when play_count does not exist yet."""
    client.update_item(
        TableName="Social",
        Key={"PK": {"S": f"VID#{video_id}"}, "SK": {"S": "STATS#TOTAL"}},
        UpdateExpression="SET play_count = play_count + :one",
        ExpressionAttributeValues={":one": {"N": "1"}},
    )


def record_plays_in_batch(video_ids: list) -> None:
    """Broken: BatchWriteItem only puts and deletes; it cannot increment."""
    client.batch_write_item(
        RequestItems={
            "Social": [
                {
                    "PutRequest": {
                        "Item": {"PK": {"S": "VID#9f3a"}, "SK": {"S": "STATS#TOTAL"}},
                        "UpdateExpression": "ADD play_count :one",
                    }
                }
            ]
        }
    )
