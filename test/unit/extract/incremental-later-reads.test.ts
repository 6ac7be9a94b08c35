/**
 * Incremental extraction where a site reads a value declared further down the file (review 1, D1 and D2). Every
 * update must equal a fresh full extraction.
 * - D1: a member edit (`export const x = {...}`, `const x = {...}`, `module.exports = {...}`, a class member) whose
 *   member reads a statement after the edited one. The member used to be extracted before the later statements were
 *   moved, so the values it read kept their offsets from before the edit; it now takes the statement path (the member
 *   path stays for reads from above, asserted).
 * - D2: a statement whose site reads an object, number or unknown value (or an object's key) from a statement after
 *   an edit in between: `maxRef` counted only strings, so the site was never moved.
 * LF and CRLF, one parse and chunked parses.
 */
import { strict as assert } from 'node:assert';
import { TsDocument } from '../../../server/src/extract/typescript';

const HEAD = `import { DynamoDBDocumentClient, UpdateCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
const doc = DynamoDBDocumentClient.from(client);
`;
const norm = (x: unknown) => JSON.parse(JSON.stringify(x)) as unknown;
const fresh = (text: string) => new TsDocument('typescript', 'typescript').full(text);

interface Step {
  doc: TsDocument;
  text: string;
}
function start(text: string, crlf: boolean, chunkChars?: number): Step {
  const t = crlf ? text.replace(/\n/g, '\r\n') : text;
  const doc = new TsDocument('typescript', 'typescript', chunkChars);
  doc.full(t);
  return { doc, text: t };
}
/** Insert `ins` after `mark`; the update must equal a fresh extraction. */
function insert(st: Step, mark: string, ins: string): void {
  const at = st.text.indexOf(mark) + mark.length;
  assert.ok(at >= mark.length, mark);
  st.text = st.text.slice(0, at) + ins + st.text.slice(at);
  const got = st.doc.update(st.text, { start: at, oldEnd: at, newEnd: at + ins.length });
  const want = fresh(st.text);
  assert.ok(want.length > 0);
  assert.deepEqual(norm(got), norm(want), `${JSON.stringify(ins)} after ${mark} in\n${st.text}`);
}

/** The value a member's new request reads (`$V`), declared after the member's statement. */
const LATER: { name: string; decl: string; use: string }[] = [
  { name: 'object', decl: `const cfg = { table: 'Posts' };`, use: `ExpressionAttributeValues: { ':m': cfg }` },
  { name: 'object of unknowns', decl: `const cfg = { a: compute(), b: 2 };`, use: `ExpressionAttributeValues: { ':m': cfg }` },
  { name: 'number', decl: `const N = 7;`, use: `ExpressionAttributeValues: { ':m': N }` },
  { name: 'unknown', decl: `const U = compute();`, use: `ExpressionAttributeValues: { ':m': U }` },
  { name: 'string', decl: `const V = 'hello';`, use: `ExpressionAttributeValues: { ':m': V }` },
];
const request = (use: string) => ` await doc.send(new UpdateCommand({ TableName: 'T', Key: { id: 7 }, UpdateExpression: 'SET m = :m', ${use} }));`;

/** Containers whose function member is edited alone (`Unit.members`). */
const CONTAINERS: { name: string; text: (decl: string) => string }[] = [
  {
    name: 'export const x = {...}',
    text: (decl) => `${HEAD}export const handlers = {\n  async a(e) { return e; },\n  async b(e) {\n    /*B*/\n    return 1;\n  },\n};\n${decl}\n`,
  },
  {
    name: 'const x = {...}',
    text: (decl) => `${HEAD}const svc = {\n  a: async (e) => { return e; },\n  b: async (e) => {\n    /*B*/\n    return 1;\n  },\n};\nexport { svc };\n${decl}\n`,
  },
  {
    name: 'module.exports = {...}',
    text: (decl) => `${HEAD}module.exports = {\n  async a(e) { return e; },\n  async b(e) {\n    /*B*/\n    return 1;\n  },\n};\n${decl}\n`,
  },
  {
    name: 'class member',
    text: (decl) => `${HEAD}export class Svc {\n  async a(e) { return e; }\n  async b(e) {\n    /*B*/\n    return 1;\n  }\n}\n${decl}\n`,
  },
];

describe('extract: incremental updates reading values declared further down (review 1)', () => {
  describe('D1: a member edit reading a statement after its own equals a fresh extraction', () => {
    for (const c of CONTAINERS)
      for (const v of LATER)
        for (const crlf of [false, true])
          it(`${c.name}, ${v.name}${crlf ? ', CRLF' : ''}`, () => {
            const st = start(c.text(v.decl), crlf);
            insert(st, '/*B*/', request(v.use));
            insert(st, '/*B*/', request(v.use));
            insert(st, '/*B*/', ' const z = 1;');
          });

    it('the reviewer\'s repro: another member with a syntax error, one parse', () => {
      const text = `${HEAD}export const handlers = { async a(e) { return { id; e }; }, async b(e) { /*B*/ return 1; } }; const cfg = { table: 'Posts' };\n`;
      const st = start(text, false);
      insert(st, '/*B*/', request(`ExpressionAttributeValues: { ':m': cfg }`));
    });

    it('chunked parses (units start mid-chunk)', () => {
      for (const c of CONTAINERS) {
        const st = start(c.text(LATER[0].decl), false, 64);
        insert(st, '/*B*/', request(LATER[0].use));
        insert(st, '/*B*/', request(LATER[0].use));
      }
    });

    it('keeps the member path for reads from above', () => {
      for (const c of CONTAINERS) {
        const text = c.text('').replace(HEAD, `${HEAD}${LATER[0].decl}\n`);
        const st = start(text, false);
        insert(st, '/*B*/', request(LATER[0].use));
        assert.equal(st.doc.lastMember, true, c.name);
      }
    });
  });

  describe('D2: a site pointing further down through an object, number or unknown value is moved', () => {
    const READS: { name: string; item: string; decl: string }[] = [
      { name: 'object of functions (keys and unknowns)', item: `{ x: handlers }`, decl: `export const handlers = { a: async () => 1 };` },
      { name: 'object of numbers', item: `{ x: cfg }`, decl: `const cfg = { a: 1, b: 2 };` },
      { name: 'empty object', item: `{ x: cfg }`, decl: `const cfg = {};` },
      { name: 'number', item: `{ x: N }`, decl: `const N = 7;` },
      { name: 'unknown', item: `{ x: U }`, decl: `const U = compute();` },
      { name: 'whole item', item: `cfg`, decl: `const cfg = { id: 1, n: compute() };` },
      { name: 'array of numbers', item: `{ x: A }`, decl: `const A = [1, 2];` },
    ];
    for (const r of READS)
      for (const crlf of [false, true])
        it(`${r.name}${crlf ? ', CRLF' : ''}`, () => {
          const text = `${HEAD}export async function f() { await doc.send(new PutCommand({ TableName: 'T', Item: ${r.item} })); }\nexport async function g() { /*G*/ }\n${r.decl}\n`;
          const st = start(text, crlf);
          insert(st, '/*G*/', 'let q;');
          insert(st, '/*G*/', ' let w = 2;');
          for (const chunk of [48, 96]) {
            const sc = start(text, crlf, chunk);
            insert(sc, '/*G*/', 'let q;');
          }
        });
  });

  describe('an edit right after a statement holding a parse error (found by the review\'s fuzzer, fuzz.ts seed 2)', () => {
    // The `await doc.send(` line's call is never closed (a tagged template swallows its closers): the whole-document
    // parse ended that statement at `}` only because `export` cannot continue it; an identifier can.
    const TEXT = [
      "    if (res && now > 6) await doc.send(new UpdateCommand({ TableName: TABLE, Key: { PK: postId }, UpdateExpression: 'SET seen = :t'` ExpressionAttributeValues: { ':t': new Set(['a', 'b']) } }));",
      "` const q = 1;*/doc.send(new PutCommand({ TableName: handlers.t, Item: { x: 1 } })); const q = 1;rn 1; },",
      "  await doc.send(new PutCommand({ TableName: TABLE, Item: { id: 'routes'`table: 'Other', } }));",
      "    /*K*/`xcfgdoc.send(new PutCommand({ TableName: cfg.table, Item: { x: handlers } }));",
      "  }",
      "}",
      "/*END*/",
      "export const req: PutCommandInput = { TableName: cfg.table, Item: { h: handlers, c: cfg } };",
    ].join('\n');
    for (const ins of ['handlers', 'cfg', ' q'])
      for (const crlf of [false, true])
        it(`inserting ${JSON.stringify(ins)} before the next statement${crlf ? ', CRLF' : ''}`, () => {
          const st = start(TEXT, crlf);
          insert(st, '/*END*/', ins);
        });

    // Typing below a half-written line: only an edit up to the end of the next statement's first line can extend the
    // broken statement; further in, the edit is read incrementally (it re-extracted the whole document at each key:
    // review 3, P1).
    const BELOW = `${HEAD}const broken = (;\nexport async function bump(id: string) {\n  /*FIRST*/\n  await doc.send(new UpdateCommand({ TableName: 'T', Key: { id }, UpdateExpression: 'SET seen/*S*/ = :t', ExpressionAttributeValues: { ':t': 1 } }));\n}\nexport const after = 1;\n`;
    for (const crlf of [false, true])
      it(`typing inside the statement after a broken one stays incremental and equals a fresh extraction${crlf ? ', CRLF' : ''}`, () => {
        const st = start(BELOW, crlf);
        for (const ch of ['x', 'y', 'z']) {
          insert(st, '/*S*/', ch);
          assert.equal(st.doc.lastWasIncremental, true, 'read incrementally');
        }
        insert(st, '/*FIRST*/', ' q');
        assert.equal(st.doc.lastWasIncremental, true, 'a later line of the statement too');
      });
    for (const crlf of [false, true])
      it(`an edit on the next statement's first line after a broken one is read whole${crlf ? ', CRLF' : ''}`, () => {
        const st = start(BELOW, crlf);
        insert(st, 'export async function bump(id: string) {', ' ');
        assert.equal(st.doc.lastWasIncremental, false);
      });

    it('an edit inside a statement holding a parse error (fuzz.ts seed 15, reduced): the region parses alone, not as in the document', () => {
      const text = "(async d() { /*D*/ },c.send(new PutCommand({ TableName: handlers.t, Item: { x: 1 } }));table: 'Other',/*\n  get: (k) => { /*H*/\nlet handlers = 1;\n, h: handlers(doc.send(new PutCommand({ TableName: cfg.table, Item: { x: handlers } }));";
      const st = start(text, false);
      insert(st, '/*H*/', 'x');
    });
  });
});
