/**
 * The Unknown operation (issue 13): a request by shape whose keys do not tell its operation (`Key` +
 * `ConditionExpression` alone: a delete, a ConditionCheck, an update being built) is a site of its own; the rules that
 * do not depend on the operation (expression syntax, placeholders, reserved words) read it, the others stay silent.
 */
import { strict as assert } from 'node:assert';
import { extract } from '../../../server/src/extract';
import { estimate } from '../../../server/src/cost/estimate';
import { DEFAULT_SETTINGS } from '../../../server/src/protocol/settings';
import { lint, parsersReady, slice } from './check';

interface UnknownCase {
  name: string;
  ts: string;
  py: string;
  /** `rule-id text-under-range` of every warning/error, in document order. */
  expect: string[];
}

const cases: UnknownCase[] = [
  {
    name: 'a reserved word in the condition',
    ts: "export const GUARD = { Key: { pk: 'a' }, ConditionExpression: 'attribute_exists(pk) AND status = :s', ExpressionAttributeValues: { ':s': 'open' } };\n",
    py: "GUARD = {'Key': {'pk': 'a'}, 'ConditionExpression': 'attribute_exists(pk) AND status = :s', 'ExpressionAttributeValues': {':s': 'open'}}\n",
    expect: ['reserved-word status'],
  },
  {
    name: 'placeholders: an undefined name, an unused value',
    ts: "export const GUARD = { Key: { pk: 'a' }, ConditionExpression: '#o = :me', ExpressionAttributeValues: { ':me': 'u1', ':other': 'u2' } };\n",
    py: "GUARD = {'Key': {'pk': 'a'}, 'ConditionExpression': '#o = :me', 'ExpressionAttributeValues': {':me': 'u1', ':other': 'u2'}}\n",
    expect: ['undefined-name #o', "unused-value ':other'"],
  },
  {
    name: 'a syntax error in the condition',
    ts: "export function guard() {\n  return { Key: { pk: 'a' }, ConditionExpression: 'attribute_exists(pk) AND AND #v = :v', ExpressionAttributeNames: { '#v': 'v' }, ExpressionAttributeValues: { ':v': 1 } };\n}\n",
    py: "def guard():\n    return {'Key': {'pk': 'a'}, 'ConditionExpression': 'attribute_exists(pk) AND AND #v = :v', 'ExpressionAttributeNames': {'#v': 'v'}, 'ExpressionAttributeValues': {':v': 1}}\n",
    expect: ['expression-syntax AND'],
  },
  {
    name: 'a correct condition: nothing to say, whatever the operation turns out to be',
    ts: "export const GUARD = { Key: { pk: 'a' }, ConditionExpression: 'attribute_exists(pk) AND #v = :v', ExpressionAttributeNames: { '#v': 'version' }, ExpressionAttributeValues: { ':v': 3 } };\n",
    py: "GUARD = {'Key': {'pk': 'a'}, 'ConditionExpression': 'attribute_exists(pk) AND #v = :v', 'ExpressionAttributeNames': {'#v': 'version'}, 'ExpressionAttributeValues': {':v': 3}}\n",
    expect: [],
  },
];

describe('the Unknown operation', () => {
  before(parsersReady);
  for (const c of cases)
    for (const [lang, code] of [
      ['typescript', c.ts],
      ['python', c.py],
    ] as const) {
      it(`${lang}: ${c.name}`, () => {
        assert.deepEqual(
          extract(code, lang).sites.map((s) => s.api),
          ['Unknown'],
        );
        const got = lint(code, lang)
          .filter((f) => f.severity === 'error' || f.severity === 'warning')
          .map((f) => `${f.ruleId} ${slice(code, f)}`);
        assert.deepEqual(got, c.expect);
      });
    }

  it('has no cost estimate (nothing is known to be read or written)', () => {
    const [site] = extract(cases[0].ts, 'typescript').sites;
    const e = estimate(site, DEFAULT_SETTINGS);
    assert.equal(e.estimated, false);
    assert.equal(e.wcu + e.rcu, 0);
  });
});
