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

/**
 * Generated files of the shapes the data flow reads (robustness): per block a helper sending an ADD, callers passing
 * `n` and `-n`, a transaction slice/list grown in a loop and on a branch, a request changed after its literal (Go) or
 * a builder variable, SDK 1.x chains (`new AttributeValue("x")`, `addXEntry(k, v)`) and an Enhanced Client
 * `putExpressionValue(k, v)` (Java).
 */
export function goFlowFile(lines: number): string {
  const head = `package likes\n\nimport (\n\t"context"\n\t"strconv"\n\n\t"github.com/aws/aws-sdk-go-v2/aws"\n\t"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"\n\t"github.com/aws/aws-sdk-go-v2/service/dynamodb"\n\t"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"\n)\n\nconst table = "Social"\n`;
  const parts = [head];
  let n = head.split('\n').length;
  for (let i = 0; n < lines; i++) {
    const f = `
func bump${i}(ctx context.Context, c *dynamodb.Client, post string, delta int) error {
	_, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                 aws.String(table),
		Key:                       map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: post}},
		UpdateExpression:          aws.String("ADD likeTally :d"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":d": &types.AttributeValueMemberN{Value: strconv.Itoa(delta)}},
	})
	return err
}

func unlike${i}(ctx context.Context, c *dynamodb.Client, post string, n int) error {
	return bump${i}(ctx, c, post, -n)
}

func likeAll${i}(ctx context.Context, c *dynamodb.Client, post string, users []string, guard bool) error {
	items := make([]types.TransactWriteItem, 0, len(users))
	for _, u := range users {
		put := &types.Put{TableName: aws.String(table), Item: map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: post}, "SK": &types.AttributeValueMemberS{Value: u}}}
		if guard {
			put.ConditionExpression = aws.String("attribute_not_exists(SK)")
		}
		items = append(items, types.TransactWriteItem{Put: put})
	}
	items = append(items, types.TransactWriteItem{Update: &types.Update{TableName: aws.String(table), Key: map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: post}}, UpdateExpression: aws.String("ADD likeTally :one"), ExpressionAttributeValues: map[string]types.AttributeValue{":one": &types.AttributeValueMemberN{Value: "${i}"}}}})
	in := &dynamodb.TransactWriteItemsInput{TransactItems: items}
	if guard {
		in.ClientRequestToken = aws.String(post)
	}
	_, err := c.TransactWriteItems(ctx, in)
	return err
}

func viewsExpr${i}(title string) (expression.Expression, error) {
	update := expression.UpdateBuilder{}
	if title != "" {
		update = update.Set(expression.Name("title"), expression.Value(title))
	}
	update = update.Set(expression.Name("views"), expression.Name("views").Plus(expression.Value(${i})))
	return expression.NewBuilder().WithUpdate(update).WithCondition(expression.Name("PK").AttributeExists()).Build()
}

func view${i}(ctx context.Context, c *dynamodb.Client, post string) error {
	expr, err := viewsExpr${i}(post)
	if err != nil {
		return err
	}
	_, err = c.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                 aws.String(table),
		Key:                       map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: post}},
		UpdateExpression:          expr.Update(),
		ConditionExpression:       expr.Condition(),
		ExpressionAttributeNames:  expr.Names(),
		ExpressionAttributeValues: expr.Values(),
	})
	return err
}
`;
    parts.push(f);
    n += f.split('\n').length - 1;
  }
  return parts.join('');
}

export function javaFlowFile(lines: number): string {
  const parts = ['package likes;\n\nimport java.util.*;\nimport software.amazon.awssdk.services.dynamodb.model.*;\n\npublic class Likes {\n    private static final String TABLE = "Social";\n'];
  let n = 7;
  for (let i = 0; n < lines; i++) {
    const f = `
    private void bump${i}(DynamoDbClient ddb, String post, long delta) {
        Map<String, AttributeValue> values = new HashMap<>();
        values.put(":d", AttributeValue.builder().n(String.valueOf(delta)).build());
        ddb.updateItem(UpdateItemRequest.builder().tableName(TABLE).key(Map.of("PK", AttributeValue.fromS(post)))
                .updateExpression("ADD likeTally :d").expressionAttributeValues(values).build());
    }

    void unlike${i}(DynamoDbClient ddb, String post, long n) {
        bump${i}(ddb, post, -n);
    }

    void likeAll${i}(DynamoDbClient ddb, String post, List<String> users, boolean guard) {
        List<TransactWriteItem> items = new ArrayList<>();
        for (String u : users) {
            Put.Builder put = Put.builder().tableName(TABLE).item(Map.of("PK", AttributeValue.fromS(post), "SK", AttributeValue.fromS(u)));
            if (guard) {
                put.conditionExpression("attribute_not_exists(SK)");
            }
            items.add(TransactWriteItem.builder().put(put.build()).build());
        }
        items.add(TransactWriteItem.builder().update(Update.builder().tableName(TABLE).key(Map.of("PK", AttributeValue.fromS(post)))
                .updateExpression("ADD likeTally :one").expressionAttributeValues(Map.of(":one", AttributeValue.fromN("${i}"))).build()).build());
        ddb.transactWriteItems(TransactWriteItemsRequest.builder().transactItems(items).build());
        UpdateItemRequest legacy = new UpdateItemRequest().withTableName(TABLE).withUpdateExpression("SET seen = seen + :one");
        legacy.setExpressionAttributeValues(Map.of(":one", new AttributeValue().withN("1")));
        ddb.updateItem(legacy);
        ddb.updateItem(new UpdateItemRequest().withTableName(TABLE).withKey(Map.of("PK", new AttributeValue(post)))
                .withUpdateExpression("SET #s = :s").addExpressionAttributeNamesEntry("#s", "state").addExpressionAttributeValuesEntry(":s", new AttributeValue("x${i}")));
        Expression cond = Expression.builder().expression("attribute_not_exists(#pk) AND size > :v")
                .putExpressionName("#pk", "pk").putExpressionValue(":v", AttributeValue.fromN("${i}")).build();
        table.putItem(PutItemEnhancedRequest.builder(Item.class).item(item).conditionExpression(cond).build());
    }
`;
    parts.push(f);
    n += f.split('\n').length - 1;
  }
  parts.push('}\n');
  return parts.join('');
}
