import boto3

table = boto3.resource("dynamodb").Table("Videos")


def record_play(video_id):
    table.update_item(
        Key={"PK": f"VID#{video_id}", "SK": "STATS#TOTAL"},
        UpdateExpression="SET play_count = play_count + :one",
        ExpressionAttributeValues={":one": 1},
    )
