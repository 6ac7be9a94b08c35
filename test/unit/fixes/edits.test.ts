import { strict as assert } from 'node:assert';
import { extract, prop, type ObjectNode } from '../../../server/src/extract';
import { applyEdits } from '../../../server/src/fix/apply';
import { removeProperty } from '../../../server/src/fix/edits';
import { ready } from './helpers';

/** The `ExpressionAttributeValues` map of the only request in a document. */
function valuesMap(text: string, languageId: string): ObjectNode {
  const site = extract(text, languageId).sites[0];
  assert.ok(site, 'a request is extracted');
  const m = prop(site.params, 'ExpressionAttributeValues');
  assert.equal(m?.kind, 'object');
  return m as ObjectNode;
}

const ts = (map: string) => `new UpdateCommand({ TableName: 'T', Key: { PK: 'P' }, UpdateExpression: 'SET a = :a', ExpressionAttributeValues: ${map} });\n`;
const py = (map: string) => `table.update_item(Key={'PK': 'P'}, UpdateExpression='SET a = :a', ExpressionAttributeValues=${map})\n`;

const cases: [string, string, (m: string) => string, string, string, string][] = [
  ['first of two', 'typescript', ts, `{ ':a': 1, ':b': 2 }`, ':a', `{ ':b': 2 }`],
  ['last of two', 'typescript', ts, `{ ':a': 1, ':b': 2 }`, ':b', `{ ':a': 1 }`],
  ['middle of three', 'typescript', ts, `{ ':a': 1, ':b': 2, ':c': 3 }`, ':b', `{ ':a': 1, ':c': 3 }`],
  ['with a block comment after it', 'typescript', ts, `{ ':a': 1 /* one */, ':b': 2 }`, ':a', `{ ':b': 2 }`],
  ['after a spread', 'typescript', ts, `{ ...base, ':b': 2 }`, ':b', `{ ...base }`],
  ['before a spread', 'typescript', ts, `{ ':a': 1, ...base }`, ':a', `{ ...base }`],
  ['first line of a multi-line map with a line comment', 'typescript', ts, `{\n    ':a': 1, // first\n    ':b': 2,\n  }`, ':a', `{\n    ':b': 2,\n  }`],
  ['last line of a multi-line map without a trailing comma', 'typescript', ts, `{\n    ':a': 1,\n    ':b': 2\n  }`, ':b', `{\n    ':a': 1\n  }`],
  ['the only entry, with a trailing comma', 'typescript', ts, `{ ':a': 1, }`, ':a', `{  }`],
  ['first line, keeping the comment line of the next entry', 'typescript', ts, `{\n    ':a': 1,\n    // about b\n    ':b': 2,\n  }`, ':a', `{\n    // about b\n    ':b': 2,\n  }`],
  ['python dict, last entry', 'python', py, `{':a': 1, ':b': 2}`, ':b', `{':a': 1}`],
  ['python dict, first entry before a comment line', 'python', py, `{\n    ':a': 1,  # first\n    ':b': 2,\n}`, ':a', `{\n    ':b': 2,\n}`],
];

describe('fix/edits: removing an entry keeps the literal well-formed', () => {
  before(ready);
  for (const [name, languageId, wrap, map, key, expected] of cases) {
    it(name, () => {
      const text = wrap(map);
      const m = valuesMap(text, languageId);
      const p = m.properties.find((x) => x.key === key)!;
      assert.equal(applyEdits(text, [removeProperty(text, m, p, languageId === 'python' ? 'python' : 'typescript')]), wrap(expected));
    });
  }
});
