import { strict as assert } from 'node:assert';
import { attrType, scalarText, VNode } from '../../server/src/extract/model';

const r = { start: 0, end: 0 };
const s = (value: string): VNode => ({ kind: 'string', value, offsets: [...Array(value.length + 1).keys()], range: r });
const n = (text: string): VNode => ({ kind: 'number', text, range: r });
const obj = (entries: Record<string, VNode>): VNode => ({
  kind: 'object',
  complete: true,
  range: r,
  properties: Object.entries(entries).map(([key, value]) => ({ key, keyRange: r, value, range: r })),
});

describe('model: attribute value typing', () => {
  it('reads low-level AttributeValue maps', () => {
    assert.equal(attrType(obj({ N: s('1') }), 'low-level'), 'N');
    assert.equal(attrType(obj({ SS: { kind: 'array', items: [s('a')], complete: true, range: r } }), 'low-level'), 'SS');
    assert.equal(attrType(obj({ S: s('1'), N: s('2') }), 'low-level'), 'unknown');
    assert.equal(attrType(s('1'), 'low-level'), 'unknown');
  });
  it('reads native document values', () => {
    assert.equal(attrType(n('1'), 'document'), 'N');
    assert.equal(attrType(s('1'), 'document'), 'S');
    assert.equal(attrType({ kind: 'set', items: [n('1'), n('2')], range: r }, 'document'), 'NS');
    assert.equal(attrType({ kind: 'unknown', range: r }, 'document'), 'unknown');
  });
  it('extracts scalar text', () => {
    assert.equal(scalarText(obj({ N: s('5') }), 'low-level'), '5');
    assert.equal(scalarText(n('5'), 'document'), '5');
  });
});
