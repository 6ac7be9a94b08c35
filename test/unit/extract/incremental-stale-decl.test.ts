/**
 * `const x = {...}` member edits (issue 11): an edit inside one function member of a module-level object literal
 * bound by `const` parses that member alone; the statement's own parse (the declaration other statements read) is left
 * stale and parsed again when a statement reads the name (`Unit.stale`, `Env.refresh`). A literal that may be a
 * request itself (typed, a `TableName` key, a spread or a computed key) is deferred to the document and keeps the
 * whole-statement path. Every result equals a fresh full extraction: after member edits, then a statement starting to
 * read the name (a call's value, a module-level literal evaluated at every edit), edits that break the syntax, add or
 * remove a member, rename the declaration another statement reads.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { RequestSite } from '../../../server/src/extract/model';
import { TsDocument } from '../../../server/src/extract/typescript';
import { fcParameters } from '../../support/fc';

const TEXT = `import { DynamoDBDocumentClient, UpdateCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
const doc = DynamoDBDocumentClient.from(client);
const TABLE = 'Posts';

export const handlers = {
  a: async (e) => { /*A*/ return doc.send(new UpdateCommand({ TableName: TABLE, Key: { id: e }, UpdateExpression: 'SET a = :a' })); },
  async b(e) {
    /*B*/
    return doc.send(new PutCommand({ TableName: TABLE, Item: { id: e }, ConditionExpression: 'attribute_not_exists(id)' }));
  },
  c: async (e) => { /*C*/ return 1; },
};

export async function register() {
  /*R*/
  await doc.send(new PutCommand({ TableName: TABLE, Item: { id: 'routes' } }));
}
/*END*/
`;

const fresh = (text: string) => new TsDocument('typescript', 'typescript').full(text);

/** `chunkChars`: a full extraction parses the document in chunks of about that size (units' parses start mid-chunk). */
function editor(text: string, chunkChars?: number) {
  const doc = new TsDocument('typescript', 'typescript', chunkChars);
  doc.full(text);
  const state = { text, doc };
  const edit = (at: number, del: number, insert: string): RequestSite[] => {
    state.text = state.text.slice(0, at) + insert + state.text.slice(at + del);
    const got = doc.update(state.text, { start: at, oldEnd: at + del, newEnd: at + insert.length });
    assert.deepEqual(got, fresh(state.text), `${JSON.stringify({ at, del, insert })} in\n${state.text}`);
    return got;
  };
  const replace = (from: string, to: string) => {
    const at = state.text.indexOf(from);
    assert.ok(at >= 0, from);
    return edit(at, from.length, to);
  };
  return { state, doc, edit, replace };
}

describe('extract: a member edit in const x = {...} parses the member alone, the declaration again when read', () => {
  it('parses only the member; a statement starting to read the name reads the literal as it is now', () => {
    const e = editor(TEXT);
    e.replace('/*A*/', '/*A*/ const extra = 1;');
    assert.ok(e.doc.lastMember);
    const statement = TEXT.slice(TEXT.indexOf('export const handlers'), TEXT.indexOf('export async function'));
    assert.ok(e.doc.lastParsedChars < statement.length / 2, `parsed ${e.doc.lastParsedChars} of a ${statement.length}-char statement`);
    e.replace('/*B*/', "/*B*/\n    await doc.send(new UpdateCommand({ TableName: TABLE, Key: { id: 2 }, UpdateExpression: 'SET b = :b' }));");
    assert.ok(e.doc.lastMember);
    // A call's value: the reader's extraction parses the declaration again (the first member's new text).
    const got = e.replace("Item: { id: 'routes' }", "Item: { id: 'routes', h: handlers }");
    assert.ok(e.doc.lastWasIncremental);
    assert.ok(JSON.stringify(got.find((s) => s.enclosingFunction?.name === 'register')!.params).includes('const extra = 1'));
    // Read now: an edit inside it re-extracts the reader too.
    e.replace('const extra = 1;', 'const extra = 2;');
    assert.ok(e.doc.lastWasIncremental && !e.doc.lastMember);
    assert.equal(e.doc.lastReparsed, 2);
  });

  it('a module-level literal (evaluated again at every edit, recording no reader) sees the member edits', () => {
    const e = editor(TEXT);
    e.replace('/*A*/', '/*A*/ const extra = 1;');
    e.replace('/*C*/', '/*C*/ const other = 2;');
    assert.ok(e.doc.lastMember);
    const got = e.replace('/*END*/', "export const req = { TableName: TABLE, Key: { id: 1 }, UpdateExpression: 'SET h = :h', ExpressionAttributeValues: { ':h': handlers } };\n");
    const req = got.find((s) => JSON.stringify(s.params).includes("SET h = :h"));
    assert.ok(req && JSON.stringify(req.params).includes('const extra = 1') && JSON.stringify(req.params).includes('const other = 2'));
    // Nothing records that literal as a reader: the member path, its value still right at the next collect.
    e.replace('const other = 2;', 'const other = 3;');
    assert.ok(e.doc.lastMember);
    // Its records were moved to the refreshed parse's coordinates: the member path again.
    const again = e.replace('const extra = 1;', 'const extra = 4;');
    assert.ok(e.doc.lastMember);
    assert.ok(JSON.stringify(again.find((s) => JSON.stringify(s.params).includes('SET h = :h'))!.params).includes('const extra = 4'));
  });

  it('renaming the declaration a reader reads, adding and removing members, breaking the syntax inside a member', () => {
    const e = editor(TEXT);
    e.replace('/*A*/', '/*A*/ const extra = 1;');
    e.replace("Item: { id: 'routes' }", "Item: { id: 'routes', h: handlers }");
    e.replace('export const handlers = {', 'export const handlers2 = {');
    e.replace('export const handlers2 = {', 'export const handlers = {');
    e.replace('/*C*/', '/*C*/ const other = 2;');
    e.replace("  c: async (e) =>", "  d: async () => 5,\n  c: async (e) =>");
    e.replace('  d: async () => 5,\n', '');
    e.replace('/*B*/', '/*B*/ if (');
    e.replace('/*B*/ if (', '/*B*/');
    e.replace('/*B*/', "/*B*/ const s = '");
    e.replace("/*B*/ const s = '", '/*B*/');
    e.replace('const extra = 1;', 'const extra = 5;');
  });

  it('a literal that may be a request of its own (typed, TableName by a spread or a computed key) keeps being one across member edits', () => {
    const text = `import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
const doc = DynamoDBDocumentClient.from(client);
const base = { TableName: 'Posts' };
const K = 'TableName';
export const spread = { ...base, Item: { id: 1 }, go: async () => { /*S*/ return 1; } };
export const computed = { [K]: 'Posts', Item: { id: 2 }, go: async () => { /*C*/ return 2; } };
export const plain = { Item: { id: 3 }, go: async () => { /*P*/ return 3; } };
`;
    const e = editor(text);
    const puts = (sites: RequestSite[]) => sites.filter((s) => s.api === 'PutItem').length;
    assert.equal(puts(fresh(text)), 2);
    for (const mark of ['/*S*/', '/*C*/', '/*P*/']) {
      assert.equal(puts(e.replace(mark, `${mark} const x = 1;`)), 2);
      assert.ok(e.doc.lastMember, mark);
    }
  });

  for (const chunkChars of [undefined, 200])
  it(`random edits in the members, the reader and anywhere equal a fresh extraction${chunkChars ? ', chunked parses' : ''}`, () => {
    const pieces = [' const q = 1;', "doc.send(new UpdateCommand({ TableName: TABLE, Key: { id: 9 }, UpdateExpression: 'SET z = :z' }));", ', h: handlers', 'handlers', '(', '}', "'", 'x', '\n'];
    const marks = ['/*A*/', '/*B*/', '/*C*/', '/*R*/', "{ id: 'routes'", '/*END*/'];
    const steps = fc.array(fc.record({ mark: fc.nat(), piece: fc.nat(), anywhere: fc.nat({ max: 5 }), at: fc.nat(), del: fc.nat({ max: 3 }) }), { minLength: 1, maxLength: 12 });
    fc.assert(
      fc.property(steps, (list) => {
        const e = editor(TEXT, chunkChars);
        for (const s of list) {
          const piece = pieces[s.piece % pieces.length];
          if (s.anywhere === 0) {
            const at = s.at % (e.state.text.length + 1);
            e.edit(at, Math.min(s.del, e.state.text.length - at), piece);
            continue;
          }
          const mark = marks[s.mark % marks.length];
          const at = e.state.text.indexOf(mark);
          if (at >= 0) e.edit(at + mark.length, 0, piece);
        }
      }),
      fcParameters({ numRuns: 60 }),
    );
  });
});
