/**
 * AppSync JavaScript resolvers (issue 15): request objects returned by `request(ctx)` read as DynamoDB requests
 * (renamed fields, original ranges), the mission and expression rules firing on the same bugs as in SDK code, fixes
 * written only where AppSync's shape has the field, silence on what is unknown, and the composition with the TS
 * extractor (the TS part and the AppSync pass both incremental, per top-level statement).
 */
import { strict as assert } from 'node:assert';
import ts from 'typescript';
import { createDocumentExtractor, extract, prop, RequestSite, StringNode } from '../../../server/src/extract';
import { stringRange } from '../../../server/src/extract/model';
import { runRules } from '../../../server/src/rules';
import { applyEdits } from '../../../server/src/rules/edit';
import { strings } from './support';

const lint = (text: string, lang = 'javascript') => {
  const sites = extract(text, lang).sites;
  return { sites, findings: runRules(text, lang, sites) };
};
const shown = (text: string, fs: { ruleId: string; severity: string; range: { start: number; end: number } }[]) =>
  fs.filter((f) => f.severity === 'error' || f.severity === 'warning').map((f) => `${f.ruleId} ${text.slice(f.range.start, f.range.end)}`);

function assertOffsets(text: string, s: StringNode): void {
  for (let k = 0; k < s.value.length; k++) {
    const src = text[s.offsets[k]];
    assert.ok(src === s.value[k] || src === '\\', `char ${k} of ${JSON.stringify(s.value)}`);
  }
}

const TRANSACTION = `import { util } from '@aws-appsync/utils';

export function request(ctx) {
  return {
    operation: 'TransactWriteItems',
    transactItems: [
      {
        table: 'Likes',
        operation: 'PutItem',
        key: util.dynamodb.toMapValues({ PK: 'POST#' + ctx.args.postId, SK: 'USER#1' }),
        attributeValues: util.dynamodb.toMapValues({ createdAt: util.time.nowISO8601() }),
      },
      {
        table: 'Posts',
        operation: 'UpdateItem',
        key: util.dynamodb.toMapValues({ PK: 'POST#1', SK: 'META' }),
        update: {
          expression: 'ADD likes :one',
          expressionValues: util.dynamodb.toMapValues({ ':one': 1 }),
        },
      },
    ],
  };
}

export function response(ctx) {
  return ctx.result;
}
`;

const COUNTERS = `import { util } from '@aws-appsync/utils';

export function request(ctx) {
  const { id } = ctx.args;
  if (ctx.args.tag) {
    return {
      operation: 'UpdateItem',
      key: util.dynamodb.toMapValues({ id }),
      update: {
        expression: 'ADD tags :t',
        expressionValues: util.dynamodb.toMapValues({ ':t': 'x' }),
      },
    };
  }
  return {
    operation: 'UpdateItem',
    key: util.dynamodb.toMapValues({ id }),
    update: {
      expression: 'SET viewCount = viewCount + :one, #n = :name',
      expressionNames: { '#n': 'name' },
      expressionValues: { ':one': 1, ':name': ctx.args.name },
    },
    condition: {
      expression: 'attribute_not_exists(#s)',
      expressionNames: { '#s': 'status' },
    },
  };
}
`;

describe('extract: AppSync JavaScript resolvers', () => {
  it('a transaction: renamed fields keep the ranges written, the unguarded Put is reported, its guard fix withheld', () => {
    const { sites, findings } = lint(TRANSACTION);
    assert.deepEqual(sites.map((s) => [s.api, s.apiSource, s.style, s.sdk, s.enclosingFunction?.name]), [['TransactWriteItems', 'call', 'document', 'appsync-js', 'request']]);
    const s = sites[0];
    assert.equal(TRANSACTION.slice(s.nameRange.start, s.nameRange.end), "'TransactWriteItems'");
    const items = prop(s.params, 'TransactItems');
    assert.equal(items?.kind, 'array');
    const entries = items.kind === 'array' ? items.items : [];
    assert.deepEqual(entries.map((e) => (e.kind === 'object' ? e.properties[0].key : e.kind)), ['Put', 'Update']);
    const put = prop(entries[0], 'Put');
    assert.equal((prop(put, 'TableName') as StringNode).value, 'Likes');
    // PutItem sends key + attributeValues as the Item.
    const item = prop(put, 'Item');
    assert.deepEqual(item?.kind === 'object' ? item.properties.map((p) => p.key) : [], ['PK', 'SK', 'createdAt']);
    const upd = prop(entries[1], 'Update');
    const expr = prop(upd, 'UpdateExpression') as StringNode;
    assert.equal(TRANSACTION.slice(expr.range.start, expr.range.end), "'ADD likes :one'");
    for (const n of strings(s.params)) assertOffsets(TRANSACTION, n);
    const got = shown(TRANSACTION, findings);
    assert.ok(got.includes("unguarded-add-in-transaction 'PutItem'"), got.join('\n'));
    const f = findings.find((x) => x.ruleId === 'unguarded-add-in-transaction')!;
    // AppSync has no top-level ConditionExpression: the fix would need a `condition` object, so none is offered.
    assert.deepEqual(f.fixes ?? [], []);
  });

  it('counters, operand types, reserved words and placeholders fire as in SDK code; fixes write AppSync maps', () => {
    const { sites, findings } = lint(COUNTERS);
    assert.equal(sites.length, 2);
    const got = shown(COUNTERS, findings);
    assert.ok(got.includes('add-on-non-number :t'), got.join('\n'));
    assert.ok(got.includes('set-without-if-not-exists viewCount = viewCount + :one'), got.join('\n'));
    // `update` and `condition` maps merged: `#s`/`:s` of the condition are defined, nothing reported as unused.
    assert.ok(!got.some((g) => /undefined-|unused-/.test(g)), got.join('\n'));
    const fix = findings.find((x) => x.ruleId === 'set-without-if-not-exists')!.fixes?.[0];
    assert.ok(fix, 'if_not_exists fix offered');
    const out = applyEdits(COUNTERS, fix.edits);
    assert.match(out, /expressionValues: \{ ':one': 1, ':name': ctx\.args\.name, ':zero': 0 \}/);
    assert.equal((ts.createSourceFile('x.js', out, ts.ScriptTarget.Latest, true) as unknown as { parseDiagnostics: unknown[] }).parseDiagnostics.length, 0);
    assert.ok(!shown(out, lint(out).findings).some((g) => g.startsWith('set-without-if-not-exists')), out);
    // Values written in both `update` and `condition`: the merged map is not a place to write (which one would it be?).
    const both = COUNTERS.replace("expressionNames: { '#s': 'status' },", "expressionNames: { '#s': 'status' }, expressionValues: { ':s': 'x' },").replace("attribute_not_exists(#s)", "attribute_not_exists(#s) OR #s <> :s");
    const f2 = lint(both).findings.find((x) => x.ruleId === 'set-without-if-not-exists')!;
    assert.ok(!(f2.fixes ?? []).some((x) => x.edits.some((e) => e.newText.includes(':zero'))), 'no :zero written into a merged map');
  });

  it('reserved words and undefined / unused placeholders', () => {
    const text = `import { util } from '@aws-appsync/utils';
export function request(ctx) {
  return {
    operation: 'UpdateItem',
    key: util.dynamodb.toMapValues({ id: ctx.args.id }),
    update: { expression: 'SET count = :c, b = :missing', expressionValues: util.dynamodb.toMapValues({ ':c': 1, ':unused': 2 }) },
  };
}
`;
    const got = shown(text, lint(text).findings);
    assert.ok(got.some((g) => g.startsWith('reserved-word count')), got.join('\n'));
    assert.ok(got.some((g) => g.startsWith('undefined-value :missing')), got.join('\n'));
    assert.ok(got.some((g) => /^unused-value/.test(g)), got.join('\n'));
  });

  it('unknown stays silent: ctx values, variables, an update built elsewhere; helper requests without a finding', () => {
    const text = `import { util } from '@aws-appsync/utils';
import { update, operations, put } from '@aws-appsync/utils/dynamodb';
export function request(ctx) {
  const upd = buildUpdate(ctx.args);
  return { operation: 'UpdateItem', key: util.dynamodb.toMapValues({ id: ctx.args.id }), update: upd };
}
export function other(ctx) {
  return update({ key: { id: ctx.args.id }, update: { likes: operations.increment(1) } });
}
export function more(ctx) {
  return put({ key: { id: ctx.args.id }, item: ctx.args.input });
}
export function values(ctx) {
  return { operation: 'UpdateItem', key: { id: ctx.args.id }, update: { expression: 'ADD n :v', expressionValues: { ':v': ctx.args.delta } } };
}
`;
    const { sites, findings } = lint(text);
    assert.deepEqual(sites.map((s) => s.sdk), ['appsync-js', 'appsync-js-helper', 'appsync-js-helper', 'appsync-js']);
    assert.deepEqual(shown(text, findings), []);
  });

  describe('@aws-appsync/utils/dynamodb helpers', () => {
    const HELPERS = `import * as ddb from '@aws-appsync/utils/dynamodb';
import { update, operations as ops, put, remove } from '@aws-appsync/utils/dynamodb';
export const a = (ctx) => update({ key: { id: ctx.args.id }, update: { views: ops.increment(), title: ctx.args.title, old: ops.remove(), name: ops.replace('x') } });
export const b = (ctx) => ddb.update({ key: { id: 1 }, update: { stock: ddb.operations.decrement(3) }, condition: { stock: { ge: 3 }, or: [{ s: { beginsWith: 'a' } }, { not: { t: { between: [1, 2] } } }] } });
export const c = (ctx) => put({ key: { id: 'x' }, item: { n: 1 }, condition: { id: { attributeExists: false }, tags: { contains: 'a', notContains: 'b' } } });
export const d = (ctx) => remove({ key: { id: 'x' }, condition: { owner: { ne: ctx.identity.sub } } });
`;
    const expr = (s: RequestSite, field: string) => (prop(s.params, field) as StringNode | undefined)?.value;
    const names = (s: RequestSite) => {
      const m = prop(s.params, 'ExpressionAttributeNames');
      return m?.kind === 'object' ? Object.fromEntries(m.properties.map((p) => [p.key, (p.value as StringNode).value])) : {};
    };

    it('each helper is the request the runtime sends: generated expressions, placeholders, values as written', () => {
      const sites = extract(HELPERS, 'javascript').sites;
      assert.deepEqual(sites.map((s) => [s.api, s.sdk, s.style, HELPERS.slice(s.nameRange.start, s.nameRange.end)]), [
        ['UpdateItem', 'appsync-js-helper', 'document', 'update'],
        ['UpdateItem', 'appsync-js-helper', 'document', 'update'],
        ['PutItem', 'appsync-js-helper', 'document', 'put'],
        ['DeleteItem', 'appsync-js-helper', 'document', 'remove'],
      ]);
      const [a, b, c, d] = sites;
      assert.equal(expr(a, 'UpdateExpression'), 'SET #title = :title, #name = :name REMOVE #old ADD #views :views');
      assert.deepEqual(names(a), { '#views': 'views', '#title': 'title', '#old': 'old', '#name': 'name' });
      const values = prop(a.params, 'ExpressionAttributeValues');
      assert.deepEqual(values?.kind === 'object' ? values.properties.map((p) => [p.key, p.value.kind === 'number' ? p.value.text : p.value.kind]) : [], [['views', '1'], [':title', 'unknown'], [':name', 'string']].map(([k, v]) => [k.startsWith(':') ? k : ':' + k, v]));
      assert.equal(expr(b, 'UpdateExpression'), 'ADD #stock :stock');
      assert.equal((prop(prop(b.params, 'ExpressionAttributeValues'), ':stock') as { text: string }).text, '-3');
      assert.equal(expr(b, 'ConditionExpression'), '#stock >= :stock1 AND (begins_with(#s, :s) OR NOT (#t BETWEEN :t AND :t1))');
      const item = prop(c.params, 'Item');
      assert.deepEqual(item?.kind === 'object' ? item.properties.map((p) => p.key) : [], ['id', 'n']);
      assert.equal(expr(c, 'ConditionExpression'), 'attribute_not_exists(#id) AND contains(#tags, :tags) AND NOT contains(#tags, :tags1)');
      assert.equal(expr(d, 'ConditionExpression'), '#owner <> :owner');
      assert.equal(prop(d.params, 'Key')?.kind, 'object');
    });

    it('every character of a generated expression stands for the entry it comes from', () => {
      const [a] = extract(HELPERS, 'javascript').sites;
      const e = prop(a.params, 'UpdateExpression') as StringNode;
      const at = (needle: string) => {
        const i = e.value.indexOf(needle);
        return HELPERS.slice(stringRange(e, i, i + needle.length).start, stringRange(e, i, i + needle.length).end);
      };
      assert.equal(at('#views :views'), 'views: ops.increment()');
      assert.equal(at(':title'), 'title: ctx.args.title');
      assert.equal(at('REMOVE #old'), 'old: ops.remove()');
    });

    it('the rules read them (a decrement without a floor, none with one); no fix is written into a helper call', () => {
      const text = `import { update, operations } from '@aws-appsync/utils/dynamodb';
export const unlike = (ctx) => update({ key: { id: ctx.args.id }, update: { likes: operations.decrement(1) } });
export const floored = (ctx) => update({ key: { id: ctx.args.id }, update: { likes: operations.decrement(1) }, condition: { likes: { ge: 1 } } });
export const sets = (ctx) => update({ key: { id: ctx.args.id }, update: { tags: 'x', n: operations.increment(1) } });
`;
      const { findings } = lint(text);
      assert.deepEqual(shown(text, findings), ['decrement-without-floor likes: operations.decrement(1)']);
      assert.deepEqual(findings.flatMap((f) => f.fixes ?? []), []);
    });

    it('transactWrite: items as TransactItems (Put/Update/Delete/ConditionCheck with their table); an unguarded Put next to ADD is reported, no fix', () => {
      const text = `import * as ddb from '@aws-appsync/utils/dynamodb';
export const like = (ctx) => ddb.transactWrite({
  items: [
    { putItem: { table: 'Likes', key: { postId: ctx.args.postId, userId: ctx.identity.sub }, item: { at: 1 } } },
    { updateItem: { table: 'Posts', key: { id: ctx.args.postId }, update: { likes: ddb.operations.increment(1) } } },
    { deleteItem: { table: 'Drafts', key: { id: ctx.args.postId } } },
    { conditionCheck: { table: 'Users', key: { id: ctx.identity.sub }, condition: { banned: { ne: true } } } },
  ],
});
export const built = (ctx) => ddb.transactWrite({ items: [...ctx.stash.items, { updateItem: { table: 'Posts', key: { id: 1 }, update: { n: ddb.operations.increment(1) } } }] });
`;
      const { sites, findings } = lint(text);
      assert.deepEqual(sites.map((s) => s.api), ['TransactWriteItems', 'TransactWriteItems']);
      const items = prop(sites[0].params, 'TransactItems');
      const entries = items?.kind === 'array' ? items.items : [];
      assert.deepEqual(entries.map((e) => (e.kind === 'object' ? [e.properties[0].key, text.slice(e.properties[0].keyRange.start, e.properties[0].keyRange.end), (prop(e.properties[0].value, 'TableName') as StringNode).value] : [])), [
        ['Put', 'putItem', 'Likes'],
        ['Update', 'updateItem', 'Posts'],
        ['Delete', 'deleteItem', 'Drafts'],
        ['ConditionCheck', 'conditionCheck', 'Users'],
      ]);
      assert.equal(expr(entries[3].kind === 'object' ? ({ params: entries[3].properties[0].value } as RequestSite) : sites[0], 'ConditionExpression'), '#banned <> :banned');
      // Items spread in from elsewhere: the list is incomplete, and list-level rules stay silent.
      const built = prop(sites[1].params, 'TransactItems');
      assert.equal(built?.kind === 'array' && built.complete, false);
      assert.deepEqual(shown(text, findings), ['unguarded-add-in-transaction putItem']);
      assert.deepEqual(findings.flatMap((f) => f.fixes ?? []), []);
    });

    it('unknown means silent: no import, a shadowing local, an argument that is not a literal', () => {
      const noImport = `export function request(ctx) { return update({ key: { id: 1 }, update: { n: operations.decrement(1) } }); }`;
      assert.deepEqual(extract(noImport, 'javascript').sites, []);
      const variable = `import { update } from '@aws-appsync/utils/dynamodb';
export function request(ctx) { const args = { key: { id: 1 }, update: { n: 1 } }; return update(args); }`;
      assert.deepEqual(extract(variable, 'javascript').sites, []);
      const other = `import { update } from './my-helpers';
export function request(ctx) { return update({ key: { id: 1 }, update: { n: 1 } }); }`;
      assert.deepEqual(extract(other, 'javascript').sites, []);
    });

    it('incremental: random edits of a helper file give the same sites as a fresh extraction', () => {
      let seed = 11;
      const rnd = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32);
      const key = (s: RequestSite) => `${s.api}/${s.sdk}@${s.range.start}-${s.range.end}:${JSON.stringify(s.params)}`;
      const doc = createDocumentExtractor('javascript');
      let text = HELPERS;
      doc.update(text);
      const pieces = ['a', ' ', '\n', "'", '{', '}', ',', 'ops.increment(2)', 'attributeExists: true', '...x, '];
      for (let i = 0; i < 60; i++) {
        const at = Math.floor(rnd() * text.length);
        const del = rnd() < 0.3 ? Math.floor(rnd() * 4) : 0;
        const ins = rnd() < 0.8 ? pieces[Math.floor(rnd() * pieces.length)] : '';
        text = text.slice(0, at) + ins + text.slice(at + del);
        const got = doc.update(text, [{ start: at, end: at + del, text: ins }]).sites.map(key);
        assert.deepEqual(got, extract(text, 'javascript').sites.map(key), `edit ${i}`);
      }
    });
  });

  it('without the import: only objects returned by an exported request function; reads are not sites', () => {
    const text = `export function request(ctx) {
  return { operation: 'PutItem', key: { id: ctx.args.id }, attributeValues: { n: 'x' }, condition: { expression: 'attribute_not_exists(id)' } };
}
function notAResolver() {
  return { operation: 'UpdateItem', update: { expression: 'SET a = a + :x' } };
}
export const other = () => ({ operation: 'GetItem', key: { id: 1 } });
`;
    const sites = extract(text, 'javascript').sites;
    assert.deepEqual(sites.map((s) => [s.api, s.sdk, prop(s.params, 'ConditionExpression')?.kind]), [['PutItem', 'appsync-js', 'string']]);
    const ts2 = text.replace('export function request(ctx)', 'export function request(ctx: Context): DynamoDBPutItemRequest');
    assert.equal(extract(ts2, 'typescript').sites.length, 1);
  });

  it('composition: AppSync sites next to SDK sites, in document order, through the document extractor', () => {
    const text = `import { util } from '@aws-appsync/utils';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
const doc = DynamoDBDocumentClient.from(client);
export async function helper() {
  await doc.send(new UpdateCommand({ TableName: 'T', Key: { id: 1 }, UpdateExpression: 'ADD n :one', ExpressionAttributeValues: { ':one': 1 } }));
}
export function request(ctx) {
  return { operation: 'DeleteItem', key: util.dynamodb.toMapValues({ id: ctx.args.id }) };
}
`;
    const full = extract(text, 'typescript').sites;
    assert.deepEqual(full.map((s) => s.sdk), ['sdk-v3-lib', 'appsync-js']);
    const doc = createDocumentExtractor('typescript');
    doc.update(text);
    // An edit inside the helper: the TS part and the AppSync pass re-read only that statement.
    const at = text.indexOf("'T'") + 1;
    const next = text.slice(0, at) + 'X' + text.slice(at);
    const r = doc.update(next, [{ start: at, end: at, text: 'X' }]);
    assert.equal(doc.last.update, 'incremental');
    const key = (s: RequestSite) => `${s.sdk}@${s.range.start}-${s.range.end}:${JSON.stringify(s.params, (k, v) => (k === 'offsets' || k === 'ends' ? undefined : v))}`;
    assert.deepEqual(r.sites.map(key), extract(next, 'typescript').sites.map(key));
  });

  it('incremental: random edits give the same sites as a fresh extraction', () => {
    let seed = 7;
    const rnd = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32);
    const key = (s: RequestSite) => `${s.api}/${s.sdk}@${s.range.start}-${s.range.end}:${JSON.stringify(s.params, (k, v) => (k === 'offsets' || k === 'ends' ? undefined : v))}`;
    const doc = createDocumentExtractor('javascript');
    let text = COUNTERS + TRANSACTION;
    doc.update(text);
    const pieces = ['a', ' ', '\n', "'", '{', '}', ',', ':one', 'ADD x :t', 'operation: '];
    for (let i = 0; i < 60; i++) {
      const at = Math.floor(rnd() * text.length);
      const del = rnd() < 0.3 ? Math.floor(rnd() * 4) : 0;
      const ins = rnd() < 0.8 ? pieces[Math.floor(rnd() * pieces.length)] : '';
      text = text.slice(0, at) + ins + text.slice(at + del);
      const got = doc.update(text, [{ start: at, end: at + del, text: ins }]).sites.map(key);
      assert.deepEqual(got, extract(text, 'javascript').sites.map(key), `edit ${i}`);
    }
  });

  it('bad input never throws: malformed, truncated, deeply nested, huge, binary', () => {
    const bad = [
      TRANSACTION.slice(0, TRANSACTION.length / 2),
      "import '@aws-appsync/utils'; export function request(ctx) { return { operation: 'UpdateItem', update: { expression: ",
      "import '@aws-appsync/utils'; const x = " + '{ operation: 1, a: '.repeat(3000) + '}'.repeat(3000),
      "import '@aws-appsync/utils'; const x = " + '['.repeat(20000),
      TRANSACTION + '\0\0\0',
    ];
    for (const t of bad) assert.doesNotThrow(() => runRules(t, 'javascript', extract(t, 'javascript').sites));
    const huge = TRANSACTION + COUNTERS.repeat(400);
    const sites = extract(huge, 'javascript').sites;
    assert.equal(sites.length, 1 + 2 * 400);
  });
});
