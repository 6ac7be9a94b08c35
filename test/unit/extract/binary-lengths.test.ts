/**
 * Binary values in document style (SDK DocumentClient, boto3 resource) and as the SDK's bytes in low-level style: the
 * extractor records their length when the source spells it out, so cost estimates can size them; otherwise none.
 */
import { strict as assert } from 'node:assert';
import { extract, initParsers, prop } from '../../../server/src/extract';
import { itemSize } from '../../../server/src/cost';

/** Each case: a value expression in the host language and the byte length expected (`undefined`: not known). */
const TS: [string, number | undefined][] = [
  [`Buffer.from('abc')`, 3],
  [`Buffer.from('héllo', 'utf8')`, 6],
  [`Buffer.from('aGVsbG8=', 'base64')`, 5],
  [`Buffer.from('00ff10', 'hex')`, 3],
  [`Buffer.from('0f0', 'hex')`, undefined],
  [`Buffer.from('abc', 'latin1')`, 3],
  [`Buffer.from([1, 2, 3, 4])`, 4],
  [`Buffer.from(ENCODED, 'base64')`, 5],
  [`Buffer.from(payload)`, undefined],
  [`Buffer.from('abc', enc)`, undefined],
  [`Buffer.alloc(16)`, 16],
  [`Buffer.alloc(size)`, undefined],
  [`new Uint8Array([1, 2])`, 2],
  [`new Uint8Array(8)`, 8],
  [`new Uint8Array([...bytes])`, undefined],
  [`Uint8Array.of(1, 2, 3)`, 3],
  [`new TextEncoder().encode('€')`, 3],
  [`new TextEncoder().encode(text)`, undefined],
  [`Buffer.from(new Uint8Array(8), 0, 2)`, undefined],
  [`new Uint8Array(new ArrayBuffer(16), 4, 2)`, undefined],
  [`new Uint8Array()`, 0],
];

const PY: [string, number | undefined][] = [
  [`b'abc'`, 3],
  [`b'\\x00\\x01\\n'`, 3],
  [`b'ab' b'cd'`, 4],
  [`rb'\\x00'`, 4],
  [`Binary(b'\\xff\\xfe')`, 2],
  [`bytes([1, 2, 3])`, 3],
  [`bytearray(16)`, 16],
  [`bytes()`, 0],
  [`Binary(data)`, undefined],
  [`bytes(payload)`, undefined],
];

function lengthIn(code: string, languageId: string): number | undefined {
  const site = extract(code, languageId).sites[0];
  assert.ok(site, `a site in:\n${code}`);
  const blob = prop(prop(site.params, 'Item'), 'blob');
  assert.equal(blob?.kind, 'binary', `blob is binary in:\n${code}`);
  return blob.kind === 'binary' ? blob.length : undefined;
}

describe('extract: binary lengths', () => {
  before(() => initParsers());
  for (const [expr, want] of TS) {
    it(`TS ${expr} -> ${want ?? 'unknown'}`, () => {
      const code = `import { PutCommand } from '@aws-sdk/lib-dynamodb';\nconst ENCODED = 'aGVsbG8=';\nexport const c = new PutCommand({ TableName: 'T', Item: { PK: 'a', blob: ${expr} } });\n`;
      assert.equal(lengthIn(code, 'typescript'), want);
    });
  }
  for (const [expr, want] of PY) {
    it(`Python ${expr} -> ${want ?? 'unknown'}`, () => {
      const code = `import boto3\nfrom boto3.dynamodb.types import Binary\ntable = boto3.resource('dynamodb').Table('T')\ntable.put_item(Item={'PK': 'a', 'blob': ${expr}})\n`;
      assert.equal(lengthIn(code, 'python'), want);
    });
  }
  it('sizes an item with a literal binary attribute exactly (low-level B as SDK bytes)', () => {
    const code = `import { PutItemCommand } from '@aws-sdk/client-dynamodb';\nexport const c = new PutItemCommand({ TableName: 'T', Item: { PK: { S: 'a' }, blob: { B: Buffer.from('hello') } } });\n`;
    const site = extract(code, 'typescript').sites[0];
    // PK (2) + "a" (1) + blob (4) + 5 bytes
    assert.deepEqual(itemSize(prop(site.params, 'Item'), 'low-level'), { bytes: 12, known: true });
  });
});
