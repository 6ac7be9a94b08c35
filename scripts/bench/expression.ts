/**
 * Expression language throughput: parse + validate a realistic corpus of request expressions (counters, guarded
 * puts, queries, projections, filters, some with mistakes), next to `JSON.parse` of the same requests serialised as
 * JSON, measured in the same run.
 */
import { timeMs, type BenchRow } from '../bench';
import { parseExpression, validateRequest, type ExpressionRequest, type ValueInfo } from '../../server/src/expression';

const N = (text: string): ValueInfo => ({ type: 'N', text });
const S = (text: string): ValueInfo => ({ type: 'S', text });

/** Request templates as found in real code; `i` varies attribute names and values so nothing is memoised. */
const TEMPLATES: ((i: number) => ExpressionRequest)[] = [
  (i) => ({
    operation: 'UpdateItem',
    expressions: { UpdateExpression: `SET #c${i} = if_not_exists(#c${i}, :zero) + :inc, updatedAt = :now`, ConditionExpression: 'attribute_exists(PK)' },
    names: { map: { [`#c${i}`]: 'likeTally' }, complete: true },
    values: { map: { ':zero': N('0'), ':inc': N('1'), ':now': N(String(1750636800 + i)) }, complete: true },
    keyAttributes: { partition: 'PK', sort: 'SK', all: ['PK', 'SK'] },
  }),
  (i) => ({ operation: 'UpdateItem', expressions: { UpdateExpression: `ADD likeTally :one SET lastLiker${i % 7} = :u` }, values: { map: { ':one': N('1'), ':u': S(`USER#${i}`) }, complete: true } }),
  (i) => ({ operation: 'PutItem', expressions: { ConditionExpression: `attribute_not_exists(PK) AND attribute_not_exists(SK)` }, keyAttributes: { partition: 'PK', sort: 'SK', all: ['PK', 'SK'] }, names: i % 5 ? undefined : { map: {}, complete: true } }),
  (i) => ({
    operation: 'Query',
    expressions: { KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)', FilterExpression: `#s = :active AND size(tags) > :n${i % 3}`, ProjectionExpression: 'PK, SK, likedAt, #s' },
    names: { map: { '#s': 'status' }, complete: true },
    values: { map: { ':pk': S(`POST#${i}`), ':prefix': S('LIKE#'), ':active': S('ACTIVE'), [`:n${i % 3}`]: N('2') }, complete: true },
  }),
  (i) => ({
    operation: 'UpdateItem',
    expressions: { UpdateExpression: `SET comments = list_append(if_not_exists(comments, :empty), :c), info.views${i % 4} = info.views${i % 4} + :one REMOVE draft`, ConditionExpression: 'version = :v OR attribute_not_exists(version)' },
    values: { map: { ':empty': { type: 'L', items: [] }, ':c': { type: 'L' }, ':one': N('1'), ':v': N(String(i)) }, complete: true },
  }),
  (i) => ({ operation: 'Scan', expressions: { FilterExpression: `createdAt BETWEEN :from AND :to AND (category IN (:a, :b, :c) OR NOT contains(tags, :t))`, ProjectionExpression: `id, title, stats.views, items[${i % 10}].name` }, values: { map: { ':from': N('100'), ':to': N(String(200 + i)), ':a': S('x'), ':b': S('y'), ':c': S('z'), ':t': S('hidden') }, complete: true } }),
  // Common mistakes: reserved words, undefined/unused placeholders, a syntax slip.
  (i) => ({ operation: 'UpdateItem', expressions: { UpdateExpression: `SET status = :s, name = :n${i % 2}` }, values: { map: { ':s': S('x'), ':n0': S('y') }, complete: true } }),
  (i) => ({ operation: 'UpdateItem', expressions: { UpdateExpression: `SET a${i} = :a + :b + :c` }, values: { map: { ':a': N('1'), ':b': N('2'), ':c': N('3') }, complete: true } }),
];

export function corpus(size = 4000): ExpressionRequest[] {
  return Array.from({ length: size }, (_, i) => TEMPLATES[i % TEMPLATES.length](i));
}

export async function run(): Promise<BenchRow[]> {
  const requests = corpus();
  const texts = requests.flatMap((r) => Object.values(r.expressions) as string[]);
  const exprCount = texts.length;
  const exprBytes = Buffer.byteLength(texts.join(''));
  const json = JSON.stringify(requests);
  const jsonBytes = Buffer.byteLength(json);

  let sink = 0;
  const validateMs = timeMs(() => {
    for (const r of requests) sink += validateRequest(r).length;
  }, 9, 2);
  const kinds = requests.flatMap((r) => Object.entries(r.expressions).map(([f, t]) => [f, t as string] as const));
  const kindOf = { UpdateExpression: 'update', ConditionExpression: 'condition', FilterExpression: 'filter', KeyConditionExpression: 'keyCondition', ProjectionExpression: 'projection' } as const;
  const parseMs = timeMs(() => {
    for (const [f, t] of kinds) sink += parseExpression(kindOf[f as keyof typeof kindOf], t).tokens.length;
  }, 9, 2);
  const jsonMs = timeMs(() => {
    sink += (JSON.parse(json) as unknown[]).length;
  }, 9, 2);
  if (sink < 0) console.log(sink);

  const mbs = (bytes: number, ms: number) => bytes / 1e6 / (ms / 1000);
  const fmt = (x: number, d = 1) => x.toFixed(d);
  return [
    {
      area: 'expression',
      name: `parse+validate ${requests.length} requests (${exprCount} expressions)`,
      ours: `${fmt(exprCount / (validateMs / 1000) / 1000, 0)}k expr/s`,
      baseline: `JSON.parse same requests ${fmt(jsonMs, 2)} ms`,
      ratio: validateMs / jsonMs,
      note: `ours ${fmt(validateMs, 2)} ms; ratio = time / JSON.parse time of the corpus as JSON (${fmt(jsonBytes / 1024, 0)} KB)`,
    },
    {
      area: 'expression',
      name: 'parse+validate throughput (expression bytes)',
      ours: `${fmt(mbs(exprBytes, validateMs))} MB/s`,
      baseline: `JSON.parse ${fmt(mbs(jsonBytes, jsonMs))} MB/s`,
      ratio: mbs(exprBytes, validateMs) / mbs(jsonBytes, jsonMs),
      note: 'ratio = our MB/s / JSON.parse MB/s (higher is better)',
    },
    {
      area: 'expression',
      name: 'parse only throughput (expression bytes)',
      ours: `${fmt(mbs(exprBytes, parseMs))} MB/s`,
      baseline: `JSON.parse ${fmt(mbs(jsonBytes, jsonMs))} MB/s`,
      ratio: mbs(exprBytes, parseMs) / mbs(jsonBytes, jsonMs),
      note: `${fmt(exprCount / (parseMs / 1000) / 1000, 0)}k expr/s; ratio = our MB/s / JSON.parse MB/s`,
    },
  ];
}
