// An incremental update reads only the lines an edit touched for minified code when the text before had none: the
// result (sites, regions left out and their reasons, line numbers) equals a fresh extraction's.
import { strict as assert } from 'assert';
import { createDocumentExtractor, extract, ExtractResult } from '../../../server/src/extract';

const request = (k: number) => `client.send(new UpdateItemCommand({ TableName: 't${k}', UpdateExpression: 'ADD a :v' }));\n`;
const plain = (r: ExtractResult) => JSON.parse(JSON.stringify(r)) as unknown;

describe('minified lines after an incremental edit', () => {
  const base = Array.from({ length: 400 }, (_, k) => request(k)).join('');
  const long = 'let x = [' + '1,'.repeat(12_000) + '1];';

  for (const lang of ['typescript', 'javascript', 'json'])
    it(`${lang}: a long line typed, grown, joined, removed: equal to a fresh extraction at each step`, () => {
      const doc = createDocumentExtractor(lang);
      const check = (text: string, change?: { start: number; end: number; text: string }) => {
        const got = doc.update(text, change ? [change] : undefined);
        assert.deepEqual(plain(got), plain(extract(text, lang)));
        return got;
      };
      let text = base;
      check(text);
      // A minified line typed in the middle (one edit inserting it whole).
      const at = text.indexOf('\n', text.length >> 1) + 1;
      let next = text.slice(0, at) + long + '\n' + text.slice(at);
      let got = check(next, { start: at, end: at, text: long + '\n' });
      if (lang !== 'json') assert.equal(got.notLinted?.length, 1);
      // Removed again, then built from two lines joined by deleting the newline between them.
      check(text, { start: at, end: at + long.length + 1, text: '' });
      const half = long.length >> 1;
      next = text.slice(0, at) + long.slice(0, half) + '\n' + long.slice(half) + '\n' + text.slice(at);
      check(next, { start: at, end: at, text: long.slice(0, half) + '\n' + long.slice(half) + '\n' });
      text = next;
      next = text.slice(0, at + half) + text.slice(at + half + 1);
      got = check(next, { start: at + half, end: at + half + 1, text: '' });
      if (lang !== 'json') assert.match(got.notLinted?.[0].reason ?? '', new RegExp(`^line ${text.slice(0, at).split('\n').length} `));
      // An edit elsewhere with the minified line present, and one far from it after it is gone.
      text = next;
      check(text.slice(0, 5) + ' ' + text.slice(5), { start: 5, end: 5, text: ' ' });
      check(base.slice(0, 5) + ' ' + base.slice(5));
      check(base.slice(0, 5) + '  ' + base.slice(5), { start: 5, end: 5, text: ' ' });
    });
});
