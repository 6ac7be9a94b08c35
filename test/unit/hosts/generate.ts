/** Generated Go and Java files of a given size, one UpdateItem + one transaction per function (bench and robustness). */
export function goFile(lines: number): string {
  const head = `package likes\n\nimport (\n\t"context"\n\n\t"github.com/aws/aws-sdk-go-v2/aws"\n\t"github.com/aws/aws-sdk-go-v2/service/dynamodb"\n\t"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"\n)\n\nconst table = "Social"\n`;
  const parts = [head];
  let n = head.split('\n').length;
  for (let i = 0; n < lines; i++) {
    const f = `
func like${i}(ctx context.Context, c *dynamodb.Client, post, user string) error {
	_, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{
		TransactItems: []types.TransactWriteItem{
			{Put: &types.Put{
				TableName: aws.String(table),
				Item: map[string]types.AttributeValue{
					"PK": &types.AttributeValueMemberS{Value: "POST#" + post},
					"SK": &types.AttributeValueMemberS{Value: "LIKE#" + user},
				},
				ConditionExpression: aws.String("attribute_not_exists(SK)"),
			}},
			{Update: &types.Update{
				TableName:        aws.String(table),
				Key:              map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "POST#" + post}, "SK": &types.AttributeValueMemberS{Value: "META"}},
				UpdateExpression: aws.String("ADD likeTally :one"),
				ExpressionAttributeValues: map[string]types.AttributeValue{":one": &types.AttributeValueMemberN{Value: "${i}"}},
			}},
		},
	})
	return err
}
`;
    parts.push(f);
    n += f.split('\n').length - 1;
  }
  return parts.join('');
}

export function javaFile(lines: number): string {
  const parts = ['package likes;\n\nimport java.util.Map;\nimport software.amazon.awssdk.services.dynamodb.model.*;\n\npublic class Likes {\n    private static final String TABLE = "Social";\n'];
  let n = 7;
  for (let i = 0; n < lines; i++) {
    const f = `
    void like${i}(DynamoDbClient ddb, String post, String user) {
        ddb.transactWriteItems(TransactWriteItemsRequest.builder()
                .transactItems(
                        TransactWriteItem.builder().put(Put.builder()
                                .tableName(TABLE)
                                .item(Map.of("PK", AttributeValue.fromS("POST#" + post), "SK", AttributeValue.fromS("LIKE#" + user)))
                                .conditionExpression("attribute_not_exists(SK)")
                                .build()).build(),
                        TransactWriteItem.builder().update(Update.builder()
                                .tableName(TABLE)
                                .key(Map.of("PK", AttributeValue.fromS("POST#" + post), "SK", AttributeValue.fromS("META")))
                                .updateExpression("ADD likeTally :one")
                                .expressionAttributeValues(Map.of(":one", AttributeValue.builder().n("${i}").build()))
                                .build()).build())
                .build());
    }
`;
    parts.push(f);
    n += f.split('\n').length - 1;
  }
  parts.push('}\n');
  return parts.join('');
}
