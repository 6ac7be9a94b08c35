import { strict as assert } from 'node:assert';
import { readdirSync } from 'node:fs';
import { extract, initParsers, languageIdForPath, prop, RequestSite } from '../../../server/src/extract';
import { FIXTURES, annotations, assertMatchesAnnotations, fixture } from './support';

/** Plain .json fixtures cannot carry comments: their expectations live here. */
const JSON_EXPECTED: Record<string, string[]> = {
  'cli-transact-items.json': ['TransactWriteItems low-level aws-cli-json'],
  'cli-input-update.json': ['UpdateItem low-level aws-cli-json'],
  'cli-batch-write.json': ['BatchWriteItem low-level aws-cli-json'],
  'cli-transact-get.json': ['TransactGetItems low-level aws-cli-json'],
  'negative.json': [],
};

describe('extract: annotated fixtures', () => {
  before(() => initParsers());

  for (const file of readdirSync(FIXTURES).filter((f) => languageIdForPath(f))) {
    it(`${file} yields exactly the annotated requests`, () => {
      const text = fixture(file);
      const result = extract(text, languageIdForPath(file)!);
      assert.equal(result.skipped, undefined);
      if (file.endsWith('.json')) {
        assert.ok(file in JSON_EXPECTED, `expectations for ${file}`);
        assert.deepEqual(result.sites.map((s) => `${s.api} ${s.style} ${s.sdk}`), JSON_EXPECTED[file]);
        return;
      }
      const expected = annotations(text);
      if (file.startsWith('negative')) assert.equal(expected.length, 0);
      else assert.ok(expected.length > 0, 'fixture has annotations');
      assertMatchesAnnotations(text, result.sites, expected);
    });
  }

  const only = (file: string): { text: string; sites: RequestSite[] } => {
    const text = fixture(file);
    return { text, sites: extract(text, languageIdForPath(file)!).sites };
  };
  const slice = (text: string, r: { start: number; end: number }) => text.slice(r.start, r.end);

  it('bare CLI files are wrapped as the parameter they stand for', () => {
    const { text, sites } = only('cli-transact-items.json');
    const items = prop(sites[0].params, 'TransactItems');
    assert.equal(items?.kind, 'array');
    assert.equal(slice(text, sites[0].nameRange), '"Put"');
    const batch = only('cli-batch-write.json').sites[0];
    assert.deepEqual(
      (prop(batch.params, 'RequestItems') as { properties: { key: string }[] }).properties.map((p) => p.key),
      ['Posts', 'Comments'],
    );
  });

  it('names the operation at the command, method or type', () => {
    const names = (file: string) => only(file).sites.map((s) => slice(only(file).text, s.nameRange));
    assert.deepEqual(names('sdk-v3-client.ts'), ['TransactWriteItemsCommand', 'updateItem', 'QueryCommand', 'UpdateItemCommandInput', 'Put', 'ddb.DeleteItemCommand']);
    assert.deepEqual(names('sdk-v2.js'), ['transactWrite', 'updateItem', 'update', 'query']);
    assert.deepEqual(names('boto3_resource.py'), ['update_item', 'update_item', 'put_item', 'query', 'batch_write_item', 'put_item', 'put_item']);
  });

  it('resolves constants and concatenations to the characters that hold them', () => {
    const { text, sites } = only('sdk-v3-client.ts');
    const tx = prop(sites[0].params, 'TransactItems');
    const update = tx?.kind === 'array' ? prop(tx.items[1], 'Update') : undefined;
    const expr = prop(update, 'UpdateExpression');
    assert.equal(expr?.kind, 'string');
    if (expr?.kind !== 'string') return;
    assert.equal(expr.value, 'SET #likes = #likes + :one');
    // "#likes" comes from the LIKES constant, ":one" from the INCREMENT literal.
    const declLikes = text.indexOf("'#likes'") + 1;
    assert.equal(expr.offsets[4], declLikes);
    const one = expr.value.indexOf(':one');
    assert.equal(text.slice(expr.offsets[one], expr.offsets[one + 4]), ':one');
    assert.equal(expr.offsets[one], text.indexOf(" + :one'") + 3);
  });
});
