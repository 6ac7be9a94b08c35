/**
 * Cost hovers: time to estimate and render the hover of every request in a 5,000-line TypeScript file, next to
 * extracting the requests of that file (the work the hover stands on) in the same run.
 */
import { costHover } from '../../server/src/cost';
import { extract } from '../../server/src/extract';
import { DEFAULT_SETTINGS } from '../../server/src/protocol/settings';
import type { BenchRow } from '../bench';
import { timeMs } from '../bench';

function likesFile(lines: number): string {
  const block = (i: number) => `export async function like${i}(doc: Doc, postId: string, userId: string) {
  await doc.send(new TransactWriteCommand({
    TransactItems: [
      { Put: { TableName: 'Likes', Item: { PK: 'POST#${i}', SK: 'LIKE#u${i}' }, ConditionExpression: 'attribute_not_exists(PK)' } },
      { Update: { TableName: 'Posts', Key: { PK: 'POST#${i}', SK: 'POST' }, UpdateExpression: 'ADD likes :one', ExpressionAttributeValues: { ':one': 1 } } },
    ],
  }));
  await doc.send(new QueryCommand({ TableName: 'Likes', KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': 'POST#${i}' }, Select: 'COUNT' }));
}
`;
  const header = "import { TransactWriteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';\ntype Doc = { send(c: unknown): Promise<unknown> };\n";
  let text = header;
  for (let i = 0; text.split('\n').length < lines; i++) text += block(i);
  return text;
}

export async function run(): Promise<BenchRow[]> {
  const text = likesFile(5000);
  const sites = extract(text, 'typescript').sites;
  const hoverAll = timeMs(() => sites.map((s) => costHover(s, DEFAULT_SETTINGS)));
  const extractAll = timeMs(() => extract(text, 'typescript'));
  return [
    {
      area: 'cost',
      name: `cost hover for all ${sites.length} requests, 5,000-line TS file`,
      ours: `${hoverAll.toFixed(2)} ms`,
      baseline: `extract(): ${extractAll.toFixed(1)} ms`,
      ratio: hoverAll / extractAll,
      note: `${((hoverAll / sites.length) * 1000).toFixed(1)} µs per hover`,
    },
  ];
}
