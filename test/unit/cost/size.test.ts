import { strict as assert } from 'node:assert';
import { base64DecodedLength, itemSize, numberSize, valueSize } from '../../../server/src/cost';
import { utf8Length } from '../../../server/src/core/dynamodb';
import { UNKNOWN, num, v } from './build';

// Byte sizes DynamoDB Local charged for each number (measured at the 1 KB write boundary; the differential test
// re-measures a subset). The documented approximation "1 byte per 2 significant digits + 1" is the same for
// non-negative integers; DynamoDB's exact base-100 encoding adds a byte for negatives and odd decimal alignment.
const NUMBER_SIZES: [string, number][] = [
  ['0', 1],
  ['1', 2],
  ['9', 2],
  ['10', 2],
  ['99', 2],
  ['100', 2],
  ['1000000', 2],
  ['1e3', 2],
  ['101', 3],
  ['123', 3],
  ['1001', 3],
  ['1234', 3],
  ['12345', 4],
  ['0.5', 2],
  ['.5', 2],
  ['5.', 2],
  ['+5', 2],
  ['0.05', 2],
  ['0.005', 2],
  ['0.1', 2],
  ['1.5', 3],
  ['1.25', 3],
  ['10.1', 3],
  ['12.34', 3],
  ['123.4', 4],
  ['1.001', 4],
  ['-1', 3],
  ['-12', 3],
  ['-0.5', 3],
  ['-100', 3],
  ['-12.5', 4],
  ['1E-130', 2],
  ['-1E-130', 3],
  ['9.9E125', 2],
  ['0.0000000000000000000000000000000000000000001', 2],
  ['12345678901234567890123456789012345678', 20],
  ['-12345678901234567890123456789012345678', 21],
  ['1.2345678901234567890123456789012345678', 21],
  ['-1.2345678901234567890123456789012345678', 21],
  ['1234567890123456789012345678901234567.8', 21],
];

describe('cost: number size (DynamoDB base-100 encoding)', () => {
  for (const [text, bytes] of NUMBER_SIZES) {
    it(`${text} -> ${bytes} bytes`, () => assert.equal(numberSize(text), bytes));
  }
  for (const bad of ['', 'abc', '1e', '1.2.3', '--1', '0x10', '.']) {
    it(`"${bad}" is not a number`, () => assert.equal(numberSize(bad), undefined));
  }
  it('agrees with the documented rule ceil(digits/2)+1 on non-negative integers with even digit count', () => {
    for (const t of ['12', '1234', '123456', '98765432']) assert.equal(numberSize(t), Math.ceil(t.length / 2) + 1);
  });
});

describe('cost: strings and binary', () => {
  it('counts UTF-8 bytes', () => {
    assert.deepEqual(
      ['', 'a', 'é', '€', '😀', 'a😀é'].map(utf8Length),
      [0, 1, 2, 3, 4, 7],
    );
  });
  it('counts base64-decoded bytes', () => {
    assert.deepEqual(['', 'AQ==', 'AQI=', 'AQID', 'AQIDBA==', 'AQID\nBA=='].map(base64DecodedLength), [0, 1, 2, 3, 4, 4]);
    assert.equal(base64DecodedLength('not base64!'), undefined);
    assert.equal(base64DecodedLength('A'), undefined);
  });
});

describe('cost: attribute value sizes, low-level style', () => {
  const cases: [string, unknown, number][] = [
    ['S', { S: 'hello' }, 5],
    ['S multibyte', { S: 'é€' }, 5],
    ['N', { N: '123' }, 3],
    ['B base64', { B: 'AQID' }, 3],
    ['BOOL', { BOOL: true }, 1],
    ['NULL', { NULL: true }, 1],
    ['SS sums elements', { SS: ['a', 'bb'] }, 3],
    ['NS sums elements', { NS: ['1', '22'] }, 4],
    ['BS sums elements', { BS: ['AQ==', 'AQI='] }, 3],
    ['empty L', { L: [] }, 3],
    ['empty M', { M: {} }, 3],
    ['L: 3 + element + 1', { L: [{ S: 'a' }] }, 5],
    ['M: 3 + name + value + 1', { M: { x: { S: 'a' } } }, 6],
    ['nested', { M: { tags: { L: [{ S: 'ab' }, { N: '1' }] } } }, 3 + 4 + (3 + 2 + 1 + 2 + 1) + 1],
  ];
  for (const [name, value, bytes] of cases) {
    it(name, () => assert.deepEqual(valueSize(v(value), 'low-level'), { bytes, known: true }));
  }
  it('an unreadable value is unknown', () => {
    assert.equal(valueSize(v({ S: UNKNOWN }), 'low-level').known, false);
    assert.equal(valueSize(v({ X: 'a' }), 'low-level').known, false);
    assert.equal(valueSize(v({ N: 'abc' }), 'low-level').known, false);
    assert.equal(valueSize(v({ B: UNKNOWN }), 'low-level').known, false);
  });
});

describe('cost: attribute value sizes, document style', () => {
  const cases: [string, unknown, number][] = [
    ['string', 'hello', 5],
    ['number', 123, 3],
    ['Decimal text', num('1.50'), 3],
    ['boolean', false, 1],
    ['null', null, 1],
    ['string set', new Set(['a', 'bb']), 3],
    ['number set', new Set([1, 22]), 4],
    ['list', ['a', 1], 3 + 1 + 1 + 2 + 1],
    ['map', { x: 'a' }, 6],
  ];
  for (const [name, value, bytes] of cases) {
    it(name, () => assert.deepEqual(valueSize(v(value), 'document'), { bytes, known: true }));
  }
  it('binary of unknown length and unknown values are unknown', () => {
    assert.equal(valueSize({ kind: 'binary', range: { start: 0, end: 0 } }, 'document').known, false);
    assert.equal(valueSize(v(UNKNOWN), 'document').known, false);
  });
  it('binary of known length counts its bytes (document style, and low-level B / BS given as bytes)', () => {
    const bin = (length: number) => new Uint8Array(length);
    assert.deepEqual(valueSize(v(bin(5)), 'document'), { bytes: 5, known: true });
    assert.deepEqual(valueSize(v({ B: bin(7) }), 'low-level'), { bytes: 7, known: true });
    assert.deepEqual(valueSize(v({ BS: [bin(2), bin(3)] }), 'low-level'), { bytes: 5, known: true });
  });
});

describe('cost: item size', () => {
  it('sums attribute names and values (the AWS guide\'s rules, item in both styles)', () => {
    // id (2) + "f0ba8d6c" (8) + fullName (8) + "Zac Charles" (11) + isAdmin (7) + BOOL (1) + n (1) + 3 (2) + foods (5) + pizza,burger (11)
    const expected = 2 + 8 + 8 + 11 + 7 + 1 + 1 + 2 + 5 + 11;
    const low = v({ id: { S: 'f0ba8d6c' }, fullName: { S: 'Zac Charles' }, isAdmin: { BOOL: true }, n: { N: '3' }, foods: { SS: ['pizza', 'burger'] } });
    const doc = v({ id: 'f0ba8d6c', fullName: 'Zac Charles', isAdmin: true, n: 3, foods: new Set(['pizza', 'burger']) });
    assert.deepEqual(itemSize(low, 'low-level'), { bytes: expected, known: true });
    assert.deepEqual(itemSize(doc, 'document'), { bytes: expected, known: true });
  });
  it('counts attribute names in UTF-8', () => {
    assert.deepEqual(itemSize(v({ 'é': 'a' }), 'document'), { bytes: 3, known: true });
  });
  it('keeps the known bytes as a lower bound when a part is unknown', () => {
    assert.deepEqual(itemSize(v({ pk: 'a', body: UNKNOWN }), 'document'), { bytes: 2 + 1 + 4, known: false });
    const spread = v({ pk: 'a' });
    if (spread.kind === 'object') spread.complete = false;
    assert.deepEqual(itemSize(spread, 'document'), { bytes: 3, known: false });
    assert.deepEqual(itemSize(v(UNKNOWN), 'document'), { bytes: 0, known: false });
  });
});
