/**
 * Generated AppSync resolver files of a given size (bench and robustness): JavaScript resolvers with request objects
 * (`UpdateItem` with update and condition, `TransactWriteItems`), `@aws-appsync/utils/dynamodb` helper calls (`update`
 * with `operations.increment`/`decrement`, `put` with a condition, `transactWrite`), and VTL templates of requests
 * with references, typed values, directives and comments.
 */

const JS_HEAD = `import { util } from '@aws-appsync/utils';
import { update, put, remove, operations } from '@aws-appsync/utils/dynamodb';
import * as ddb from '@aws-appsync/utils/dynamodb';

const TABLE = 'Posts';
`;

/** One block of resolvers (36 lines): three request objects and three helper calls. */
function jsBlock(i: number): string {
  return `
export function request${i}(ctx) {
  const { postId } = ctx.args;
  return {
    operation: 'UpdateItem',
    key: util.dynamodb.toMapValues({ id: postId }),
    update: {
      expression: 'SET #views = if_not_exists(#views, :zero) + :one, title = :t',
      expressionNames: { '#views': 'views' },
      expressionValues: util.dynamodb.toMapValues({ ':zero': 0, ':one': ${i}, ':t': ctx.args.title }),
    },
    condition: { expression: 'attribute_exists(id)' },
  };
}

export const like${i} = (ctx) => ({
  operation: 'TransactWriteItems',
  transactItems: [
    { table: 'Likes', operation: 'PutItem', key: util.dynamodb.toMapValues({ PK: ctx.args.postId, SK: 'USER#${i}' }), attributeValues: { at: ${i} } },
    { table: TABLE, operation: 'UpdateItem', key: { id: { S: 'POST#${i}' } }, update: { expression: 'ADD likes :one', expressionValues: { ':one': { N: '1' } } } },
  ],
});

export const views${i} = (ctx) => update({ key: { id: ctx.args.id }, update: { views: operations.increment(${i}), title: ctx.args.title, old: operations.remove() } });
export const unlike${i} = (ctx) => ddb.update({ key: { id: ctx.args.id }, update: { likes: ddb.operations.decrement(1) }, condition: { likes: { ge: 1 } } });
export const create${i} = (ctx) => put({ key: { id: 'p${i}' }, item: { n: ${i} }, condition: { id: { attributeExists: false } } });
export const drop${i} = (ctx) => remove({ key: { id: 'p${i}' }, condition: { owner: { eq: ctx.identity.sub } } });

export function tx${i}(ctx) {
  return ddb.transactWrite({
    items: [
      { putItem: { table: 'Likes', key: { postId: ctx.args.postId, userId: 'u${i}' }, item: { at: 1 } } },
      { updateItem: { table: TABLE, key: { id: ctx.args.postId }, update: { likes: ddb.operations.increment(1) } } },
    ],
  });
}
`;
}

/** A resolver file of about `lines` lines (7 requests per 45 lines). */
export function appsyncFile(lines: number): string {
  const parts = [JS_HEAD];
  let n = JS_HEAD.split('\n').length;
  for (let i = 0; n < lines; i++) {
    const b = jsBlock(i);
    parts.push(b);
    n += b.split('\n').length - 1;
  }
  return parts.join('');
}

/** One request of a template (about 24 lines): references, typed values, a directive inside and a comment. */
function vtlRequest(i: number): string {
  return `  ## request ${i}
  {
    "version": "2018-05-29",
    "operation": "UpdateItem",
    "key": {
      "id": $util.dynamodb.toDynamoDBJson($ctx.args.id),
      "sk": { "S": "POST#${i}" }
    },
    "update": {
      "expression": "SET viewCount = viewCount + :one, updatedAt = :now, #name = :name",
      "expressionNames": { "#name": "name" },
      "expressionValues": {
        ":one": $util.dynamodb.toDynamoDBJson(${i}),
        ":now": $util.dynamodb.toDynamoDBJson($now),
        ":name": { "S": "\${ctx.args.name}" }
      }
    },
    "condition": {
      "expression": "attribute_exists(id)"
      #if($ctx.args.expected)
      , "expressionValues": { ":e": $util.dynamodb.toDynamoDBJson($ctx.args.expected) }
      #end
    }
  }`;
}

/** A VTL template of about `lines` lines: `#set` lines, then a JSON array of requests. */
export function vtlTemplate(lines: number): string {
  const head = `## generated template\n#set($now = $util.time.nowISO8601())\n$util.qr($ctx.stash.put("at", $now))\n[\n`;
  const parts: string[] = [];
  let n = 5;
  for (let i = 0; n < lines; i++) {
    const r = vtlRequest(i);
    parts.push(r);
    n += r.split('\n').length;
  }
  return head + parts.join(',\n') + '\n]\n';
}
