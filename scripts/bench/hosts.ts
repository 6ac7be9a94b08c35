/**
 * Go and Java extraction (issue 15): a full extraction and an update after a 1-char edit, against a bare tree-sitter
 * parse of the same text (the floor: extraction walks that tree); the same for files of data-flow shapes (lists grown
 * in loops and branches, helpers called with arguments, builder variables, SDK for Java 1.x setters).
 */
import { BenchRow, timeMs } from '../bench';
import { createDocumentExtractor, ensureParser, extract } from '../../server/src/extract';
import { treeParser } from '../../server/src/extract/treehost';
import { goFile, goFlowFile, javaFile, javaFlowFile } from '../../test/unit/hosts/generate';

const LINES = 5000;

function afterEdit(text: string, languageId: string): { ms: number; reparsed: number } {
  const doc = createDocumentExtractor(languageId);
  doc.update(text);
  const at = text.indexOf('\n', Math.floor(text.length / 2)) + 1;
  const edited = text.slice(0, at) + ' ' + text.slice(at);
  let flip = false;
  const ms = timeMs(() => {
    flip = !flip;
    return flip ? doc.update(edited, [{ start: at, end: at, text: ' ' }]) : doc.update(text, [{ start: at, end: at + 1, text: '' }]);
  }, 21, 4);
  const reparsed = doc.last.reparsed;
  doc.dispose();
  return { ms, reparsed };
}

export async function run(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const [lang, make, shapes] of [['go', goFile, ''], ['java', javaFile, ''], ['go', goFlowFile, ' of data-flow shapes'], ['java', javaFlowFile, ' of data-flow shapes']] as const) {
    await ensureParser(lang);
    const text = make(LINES);
    const parser = treeParser(lang)!;
    const parse = timeMs(() => parser.parse(text)!.delete(), 9, 2);
    const sites = extract(text, lang).sites.length;
    const full = timeMs(() => extract(text, lang), 9, 2);
    const edit = afterEdit(text, lang);
    const ms = (x: number) => `${x.toFixed(2)} ms`;
    rows.push(
      { area: 'extract', name: `full extraction, ${LINES}-line ${lang === 'go' ? 'Go' : 'Java'}${shapes} (${sites} requests)`, ours: ms(full), baseline: `tree-sitter parse ${ms(parse)}`, ratio: full / parse, note: 'extract / bare parse' },
      { area: 'extract', name: `after a 1-char edit, ${LINES}-line ${lang === 'go' ? 'Go' : 'Java'}${shapes} (${edit.reparsed} units re-extracted)`, ours: ms(edit.ms), baseline: `tree-sitter parse ${ms(parse)}`, ratio: edit.ms / parse, note: 'incremental update / full tree-sitter parse of the same text' },
    );
  }
  return rows;
}
