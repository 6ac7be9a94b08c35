/**
 * AppSync hosts (issue 15): a generated resolver file (request objects, `@aws-appsync/utils/dynamodb` helpers,
 * transactions) and a generated VTL template, each extracted in full and updated after a 1-char edit, against a bare
 * parse of the same text. Floors: JavaScript, TypeScript's `createSourceFile` (the AppSync pass parses with it, as the
 * TS extractor does); VTL, `JSON.parse` of the template's JSON body (the blanked text extraction reads) and, for the
 * blanking itself, a plain scan of the text (one `charCodeAt` per character).
 */
import ts from 'typescript';
import { BenchRow, timeMs } from '../bench';
import { createDocumentExtractor, extract } from '../../server/src/extract';
import { AppSyncDocument, extractAppSync } from '../../server/src/extract/appsync';
import { blankVtl } from '../../server/src/extract/vtl';
import { appsyncFile, vtlTemplate } from '../../test/unit/hosts/generate-appsync';

const LINES = 5000;
const ms = (x: number) => `${x.toFixed(2)} ms`;

/** Median time of a 1-char edit and its undo, alternately, through `update`. */
function editTime(text: string, update: (next: string, change: { start: number; end: number; text: string }) => unknown): number {
  // A space at the start of a line in the middle of the file: inside a statement's body.
  const at = text.indexOf('\n', Math.floor(text.length / 2)) + 1;
  const edited = text.slice(0, at) + ' ' + text.slice(at);
  let flip = false;
  return timeMs(() => {
    flip = !flip;
    return flip ? update(edited, { start: at, end: at, text: ' ' }) : update(text, { start: at, end: at + 1, text: '' });
  }, 21, 4);
}

function scan(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 123) n++;
  return n;
}

export function run(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];

  const js = appsyncFile(LINES);
  const parse = timeMs(() => ts.createSourceFile('file', js, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS), 9, 2);
  const requests = extract(js, 'javascript').sites.length;
  const full = timeMs(() => extract(js, 'javascript'), 9, 2);
  const pass = timeMs(() => extractAppSync(js, 'javascript', 'javascript'), 9, 2);
  const doc = createDocumentExtractor('javascript');
  doc.update(js);
  const edit = editTime(js, (next, change) => doc.update(next, [change]));
  doc.dispose();
  const app = new AppSyncDocument('javascript', 'javascript');
  app.full(js);
  const passEdit = editTime(js, (next, c) => app.update(next, { start: c.start, oldEnd: c.end, newEnd: c.start + c.text.length }));
  const passReparsed = app.lastReparsed;
  const floor = `createSourceFile ${ms(parse)}`;
  rows.push(
    { area: 'extract', name: `full extraction, ${LINES}-line AppSync JS resolver file (${requests} requests)`, ours: ms(full), baseline: floor, ratio: full / parse, note: 'TS extractor + AppSync pass / bare parse' },
    { area: 'extract', name: `  of which the AppSync pass`, ours: ms(pass), baseline: floor, ratio: pass / parse, note: 'AppSync pass / bare parse' },
    { area: 'extract', name: `after a 1-char edit, ${LINES}-line AppSync JS resolver file`, ours: ms(edit), baseline: floor, ratio: edit / parse, note: 'document extractor update / bare parse of the same text' },
    { area: 'extract', name: `  of which the AppSync pass (${passReparsed} statement re-read)`, ours: ms(passEdit), baseline: floor, ratio: passEdit / parse, note: 'AppSync pass update / bare parse' },
  );

  const vtl = vtlTemplate(LINES);
  const body = blankVtl(vtl).json;
  const jsonParse = timeMs(() => JSON.parse(body), 9, 2);
  const plain = timeMs(() => scan(vtl), 9, 2);
  const blanking = timeMs(() => blankVtl(vtl), 9, 2);
  const vtlRequests = extract(vtl, 'vtl').sites.length;
  const vtlFull = timeMs(() => extract(vtl, 'vtl'), 9, 2);
  const vdoc = createDocumentExtractor('vtl');
  vdoc.update(vtl);
  const vtlEdit = editTime(vtl, (next, change) => vdoc.update(next, [change]));
  vdoc.dispose();
  const jsonFloor = `JSON.parse of its body ${ms(jsonParse)}`;
  rows.push(
    { area: 'extract', name: `full extraction, ${LINES}-line VTL template (${vtlRequests} requests)`, ours: ms(vtlFull), baseline: jsonFloor, ratio: vtlFull / jsonParse, note: 'extract / JSON.parse of the blanked body' },
    { area: 'extract', name: `  of which blanking the VTL out`, ours: ms(blanking), baseline: `plain scan ${ms(plain)}`, ratio: blanking / plain, note: 'blankVtl / a charCodeAt loop over the text' },
    { area: 'extract', name: `after a 1-char edit, ${LINES}-line VTL template (whole template re-read)`, ours: ms(vtlEdit), baseline: jsonFloor, ratio: vtlEdit / jsonParse, note: 'document extractor update / JSON.parse of the body' },
  );
  return Promise.resolve(rows);
}
