/**
 * `npm run incremental-check`: incremental lint == fresh lint, on real code (the corpus) rather than generated templates.
 *
 * For every corpus file in the cache (test/corpus/{corpus,go,java,yaml,appsync}.json; the code is read from
 * `DYNALINT_CORPUS_CACHE`, default /work/.corpus-cache, laid out as <cache>/<owner>/<name>/<commit>/<path>, as
 * scripts/corpus.ts reads it; nothing is fetched): one `DynalintService` lints the file as an open document, then a
 * seeded pseudo-random sequence of edits (insert/delete a character, a space, a quote, a `}`, a newline, a line comment,
 * delete or duplicate a line, type a word character by character inside a string literal of a request; each edit is
 * sometimes undone). After every edit the service's findings (rule, message, severity, range, related ranges, fixes and
 * their edits) are compared with those of a fresh `DynalintService` linting the same text from scratch. A mismatch is
 * printed (file, seed, edit index, the edit, a short diff of the findings) and the file is left for the next one.
 *
 * Timing: each file's fresh lint and every incremental lint are timed; the slowest incremental edit per host is
 * reported and any incremental edit slower than --slow ms (default 200) is flagged.
 *
 * Usage: tsx scripts/incremental-check.ts [--seed N] [--edits N] [--only substring] [--cache dir] [--slow ms]
 *        [--keep-going] (do not stop a file at its first mismatch) [--verbose] [--dump dir] (the texts before and after
 *        a mismatching edit)
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { ensureParser, languageIdForPath, resolveLanguageId } from '../server/src/extract';
import { DEFAULT_SETTINGS, type DynalintSettings } from '../server/src/protocol/settings';
import type { Finding } from '../server/src/rules/types';
import { DynalintService } from '../server/src/service';
import { rng } from '../test/support/rng';

interface CorpusRef {
  repo: string;
  path: string;
  commit: string;
}

const ROOT = resolve(__dirname, '..');
const CORPORA = ['corpus', 'go', 'java', 'yaml', 'appsync'];

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const SEED = Number(arg('--seed') ?? 1);
const EDITS = Number(arg('--edits') ?? 60);
const ONLY = arg('--only');
const SLOW_MS = Number(arg('--slow') ?? 200);
const KEEP_GOING = process.argv.includes('--keep-going');
const VERBOSE = process.argv.includes('--verbose');
const DUMP = arg('--dump');
const CACHE = resolve(arg('--cache') ?? process.env.DYNALINT_CORPUS_CACHE ?? '/work/.corpus-cache');

const SETTINGS: DynalintSettings = { ...DEFAULT_SETTINGS, maxFileSize: 64 * 1024 * 1024 };

/** A seed per file (its name hashed with --seed), so one file can be re-run alone with --only. */
function fileSeed(name: string): number {
  let h = 2166136261 ^ SEED;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** Replace `[start, end)` with `text`. */
interface Change {
  start: number;
  end: number;
  text: string;
  what: string;
}

const apply = (text: string, c: Change) => text.slice(0, c.start) + c.text + text.slice(c.end);
const inverse = (text: string, c: Change): Change => ({ start: c.start, end: c.start + c.text.length, text: text.slice(c.start, c.end), what: `undo (${c.what})` });

const WORDS = ['status', ' + :one', 'if_not_exists(n, :z)', 'ADD #c :v', 'name', ' REMOVE x', ':missing', 'SET a = a - :d', '#n'];
const CHARS = ['x', '(', ')', ',', ';', ':', '#', '=', '{', '[', ']', '+', '-', '0', '.'];

/** Findings as plain data (what reaches the client), for a deep comparison. */
const plain = (fs: Finding[]) => fs.map((f) => JSON.stringify(f));

function lineCol(text: string, offset: number): string {
  let line = 1;
  let last = -1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    last = i;
  }
  return `${line}:${offset - last}`;
}

function describe(text: string, key: string): string {
  const f = JSON.parse(key) as Finding;
  const fixes = (f.fixes ?? []).map((x) => `${x.title} [${x.edits.map((e) => `${e.range.start}-${e.range.end}=${JSON.stringify(e.newText.slice(0, 40))}`).join(', ')}]`);
  const related = (f.related ?? []).map((r) => `${r.range.start}-${r.range.end}`);
  return (
    `${f.ruleId} ${f.severity} @${lineCol(text, f.range.start)} (${f.range.start}-${f.range.end}) ${JSON.stringify(f.message.slice(0, 100))}` +
    (fixes.length ? ` fixes: ${fixes.join('; ')}` : '') +
    (related.length ? ` related: ${related.join(', ')}` : '')
  );
}

/** The findings only one side has (as multisets), at most `max` lines each. */
function diff(text: string, got: string[], want: string[], max = 6): string[] {
  const count = new Map<string, number>();
  for (const k of want) count.set(k, (count.get(k) ?? 0) + 1);
  const extra: string[] = [];
  for (const k of got) {
    const n = count.get(k) ?? 0;
    if (n > 0) count.set(k, n - 1);
    else extra.push(k);
  }
  const missing: string[] = [];
  for (const [k, n] of count) for (let i = 0; i < n; i++) missing.push(k);
  const out: string[] = [];
  for (const k of extra.slice(0, max)) out.push(`  + incremental only: ${describe(text, k)}`);
  if (extra.length > max) out.push(`  + ... ${extra.length - max} more`);
  for (const k of missing.slice(0, max)) out.push(`  - fresh only:       ${describe(text, k)}`);
  if (missing.length > max) out.push(`  - ... ${missing.length - max} more`);
  if (!out.length) out.push('  (same findings, in another order)');
  return out;
}

interface HostStats {
  files: number;
  edits: number;
  mismatches: number;
  mismatchedFiles: number;
  slowest?: { ms: number; file: string; index: number; what: string };
  slowestFresh?: { ms: number; file: string };
  slow: number;
}

/** The edit generator: positions mostly in or near a request of the current text, sometimes anywhere. */
class Editor {
  /** Characters still to type (a word typed into a string literal), with where the next one goes. */
  private typing?: { rest: string; at: number; word: string };
  constructor(
    private readonly random: () => number,
    private readonly languageId: string,
  ) {}

  private int(n: number): number {
    return Math.floor(this.random() * n);
  }
  private pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)];
  }

  private position(text: string, sites: { start: number; end: number }[]): number {
    if (sites.length && this.random() < 0.7) {
      const s = this.pick(sites);
      const lo = Math.max(0, s.start - 80);
      const hi = Math.min(text.length, s.end + 80);
      return lo + this.int(hi - lo + 1);
    }
    return this.int(text.length + 1);
  }

  private lineAt(text: string, at: number): { start: number; end: number } {
    const start = text.lastIndexOf('\n', at - 1) + 1;
    const nl = text.indexOf('\n', at);
    return { start, end: nl < 0 ? text.length : nl + 1 };
  }

  /** The next edit of `text`, whose requests span `sites`. */
  next(text: string, sites: { start: number; end: number }[]): Change {
    if (this.typing) {
      const t = this.typing;
      const ch = t.rest[0];
      this.typing = t.rest.length > 1 ? { rest: t.rest.slice(1), at: t.at + 1, word: t.word } : undefined;
      return { start: t.at, end: t.at, text: ch, what: `type ${JSON.stringify(ch)} of ${JSON.stringify(t.word)} at ${t.at}` };
    }
    const at = this.position(text, sites);
    const kind = this.int(12);
    switch (kind) {
      case 0:
        return { start: at, end: at, text: this.pick(CHARS), what: 'insert a char' };
      case 1: {
        const s = Math.min(at, Math.max(0, text.length - 1));
        return { start: s, end: Math.min(text.length, s + 1), text: '', what: 'delete a char' };
      }
      case 2:
        return { start: at, end: at, text: ' ', what: 'insert a space' };
      case 3:
        return { start: at, end: at, text: this.pick(["'", '"', '`']), what: 'insert a quote' };
      case 4:
        return { start: at, end: at, text: '}', what: 'insert }' };
      case 5:
        return { start: at, end: at, text: '\n', what: 'insert a newline' };
      case 6: {
        const comment = this.languageId === 'python' || this.languageId === 'yaml' ? '# ' : '// ';
        return { start: at, end: at, text: this.random() < 0.5 ? comment : comment.trim(), what: 'insert a line comment' };
      }
      case 7: {
        const l = this.lineAt(text, at);
        return { start: l.start, end: l.end, text: '', what: 'delete a line' };
      }
      case 8: {
        const l = this.lineAt(text, at);
        const line = text.slice(l.start, l.end);
        return { start: l.end, end: l.end, text: line.endsWith('\n') ? line : '\n' + line, what: 'duplicate a line' };
      }
      case 9: {
        const l = this.lineAt(text, at);
        return { start: l.start, end: l.start, text: this.languageId === 'python' || this.languageId === 'yaml' ? '# ' : '// ', what: 'comment out a line' };
      }
      default: {
        // Type a word into a string literal of a request, one character per edit.
        const s = sites.length ? this.pick(sites) : { start: 0, end: text.length };
        const quotes: number[] = [];
        for (let i = s.start; i < s.end; i++) if (text[i] === "'" || text[i] === '"' || text[i] === '`') quotes.push(i);
        const start = quotes.length ? this.pick(quotes) + 1 : s.start + this.int(s.end - s.start + 1);
        const word = this.pick(WORDS);
        this.typing = word.length > 1 ? { rest: word.slice(1), at: start + 1, word } : undefined;
        return { start, end: start, text: word[0], what: `type ${JSON.stringify(word[0])} of ${JSON.stringify(word)} at ${start}` };
      }
    }
  }

  /** Is a word being typed (no undo in the middle of it)? */
  get busy(): boolean {
    return !!this.typing;
  }
}

async function main(): Promise<void> {
  const refs: { corpus: string; ref: CorpusRef }[] = [];
  for (const c of CORPORA) {
    const file = join(ROOT, 'test', 'corpus', `${c}.json`);
    for (const ref of (JSON.parse(readFileSync(file, 'utf8')) as { files: CorpusRef[] }).files) refs.push({ corpus: c, ref });
  }
  const missing: string[] = [];
  const unknown: string[] = [];
  const byHost = new Map<string, HostStats>();
  const slowEdits: string[] = [];
  const mismatchLog: string[] = [];
  let files = 0;
  let edits = 0;
  const t0 = performance.now();

  for (const { corpus, ref } of refs) {
    const name = `${ref.repo}/${ref.path}`;
    if (ONLY && !name.includes(ONLY)) continue;
    const src = join(CACHE, ref.repo, ref.commit, ref.path);
    if (!existsSync(src)) {
      missing.push(`${corpus}: ${ref.repo}@${ref.commit.slice(0, 10)} ${ref.path}`);
      continue;
    }
    const uri = `file:///corpus/${ref.repo}/${ref.path}`;
    const pathLanguage = languageIdForPath(ref.path);
    if (!pathLanguage) {
      unknown.push(name);
      continue;
    }
    const languageId = resolveLanguageId(pathLanguage, uri);
    await ensureParser(languageId);
    const host = languageId.replace(/react$/, '');
    const hs = byHost.get(host) ?? { files: 0, edits: 0, mismatches: 0, mismatchedFiles: 0, slow: 0 };
    byHost.set(host, hs);
    hs.files++;
    files++;

    let text = readFileSync(src, 'utf8');
    const seed = fileSeed(name);
    const editor = new Editor(rng(seed), languageId);
    const random = rng(seed ^ 0x9e3779b9);
    const service = new DynalintService();
    let version = 0;
    let fileMismatches = 0;

    const fresh = (t: string) => {
      const s = new DynalintService();
      const start = performance.now();
      const a = s.analyze(TextDocument.create(uri, languageId, 1, t), SETTINGS);
      return { findings: plain(a.findings), ms: performance.now() - start };
    };
    const lint = (t: string) => {
      const start = performance.now();
      const a = service.analyze(TextDocument.create(uri, languageId, ++version, t), SETTINGS);
      return { analysis: a, findings: plain(a.findings), ms: performance.now() - start };
    };

    const first = lint(text);
    const firstFresh = fresh(text);
    if (!hs.slowestFresh || firstFresh.ms > hs.slowestFresh.ms) hs.slowestFresh = { ms: firstFresh.ms, file: name };
    if (first.analysis.skipped) console.log(`  note: ${name} is skipped by the linter: ${first.analysis.skipped}`);
    let sites = first.analysis.sites.map((s) => ({ start: s.range.start, end: s.range.end }));
    let pendingUndo: Change | undefined;
    let maxMs = 0;

    for (let i = 0; i < EDITS; i++) {
      let change: Change;
      if (pendingUndo && !editor.busy) {
        change = pendingUndo;
        pendingUndo = undefined;
      } else {
        change = editor.next(text, sites);
        // Undo one edit in four (the next edit puts the text back); a word being typed is undone once typed.
        if (!editor.busy && random() < 0.25) pendingUndo = inverse(text, change);
      }
      const before = text;
      text = apply(text, change);
      const got = lint(text);
      const want = fresh(text);
      edits++;
      hs.edits++;
      maxMs = Math.max(maxMs, got.ms);
      const what = `${change.what}: ${JSON.stringify({ start: change.start, end: change.end, text: change.text })} (removed ${JSON.stringify(before.slice(change.start, change.end).slice(0, 60))})`;
      if (!hs.slowest || got.ms > hs.slowest.ms) hs.slowest = { ms: got.ms, file: name, index: i, what };
      if (got.ms > SLOW_MS) {
        hs.slow++;
        slowEdits.push(`${name} seed ${seed} edit ${i}: ${got.ms.toFixed(0)} ms incremental (fresh ${want.ms.toFixed(0)} ms), ${text.length} chars; ${what}`);
      }
      if (VERBOSE) console.log(`  ${i} ${got.ms.toFixed(1)} ms / fresh ${want.ms.toFixed(1)} ms ${what}`);
      sites = got.analysis.sites.map((s) => ({ start: s.range.start, end: s.range.end }));
      if (got.findings.length === want.findings.length && got.findings.every((f, k) => f === want.findings[k])) continue;
      fileMismatches++;
      hs.mismatches++;
      const report = [`MISMATCH ${name} (${languageId}) seed ${seed} edit ${i}: ${what}`, ...diff(text, got.findings, want.findings)];
      console.log(report.join('\n'));
      if (DUMP) {
        // The text before and after the edit: linting the first then the second in one service often repeats it.
        const dir = join(DUMP, `${name.replace(/[^A-Za-z0-9._-]+/g, '_')}-${seed}-${i}`);
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, 'before.txt'), before);
        writeFileSync(join(dir, 'after.txt'), text);
        writeFileSync(join(dir, 'edit.json'), JSON.stringify({ file: name, languageId, seed, index: i, change }, null, 2));
        console.log(`  dumped to ${dir}`);
      }
      mismatchLog.push(report[0]);
      if (!KEEP_GOING) break;
    }
    if (fileMismatches) hs.mismatchedFiles++;
    console.log(
      `${fileMismatches ? 'FAIL' : 'ok  '} ${name} (${languageId}, ${readFileSync(src, 'utf8').length} chars): fresh ${firstFresh.ms.toFixed(0)} ms, ` +
        `slowest incremental ${maxMs.toFixed(1)} ms` +
        (fileMismatches ? `, ${fileMismatches} mismatch${fileMismatches > 1 ? 'es' : ''}` : ''),
    );
  }

  console.log(`\nIncremental vs fresh lint: ${files} files, ${edits} edits (seed ${SEED}, ${EDITS} edits per file), ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  if (missing.length) {
    console.log(`\n${missing.length} of ${refs.length} references are not in the cache (${CACHE}):`);
    for (const m of missing) console.log(`  ${m}`);
  }
  if (unknown.length) console.log(`\nNo language for: ${unknown.join(', ')}`);
  const head = ['host', 'files', 'edits', 'mismatches', 'files failing', 'slowest fresh', `>${SLOW_MS} ms`, 'slowest incremental edit'];
  const rows = [...byHost.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([h, s]) => [
      h,
      String(s.files),
      String(s.edits),
      String(s.mismatches),
      String(s.mismatchedFiles),
      s.slowestFresh ? `${s.slowestFresh.ms.toFixed(0)} ms` : '-',
      String(s.slow),
      s.slowest ? `${s.slowest.ms.toFixed(1)} ms (${s.slowest.file} #${s.slowest.index}: ${s.slowest.what.slice(0, 60)})` : '-',
    ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (i === head.length - 1 ? 0 : r[i].length))));
  const fmt = (r: string[]) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]))).join('  ');
  console.log('\n' + fmt(head));
  for (const r of rows) console.log(fmt(r));
  if (slowEdits.length) {
    console.log(`\nIncremental edits slower than ${SLOW_MS} ms (${slowEdits.length}; timings include GC pauses: re-run a file alone with --only <path> --verbose to confirm):`);
    for (const s of slowEdits) console.log(`  ${s}`);
  }
  if (mismatchLog.length) {
    console.log(`\nMismatches (${mismatchLog.length}):`);
    for (const m of mismatchLog) console.log(`  ${m}`);
  }
  process.exitCode = mismatchLog.length ? 1 : 0;
}

void main();
