/**
 * `npm run corpus`: measures Dynalint on public code it was not written against (issue 13).
 *
 * test/corpus/corpus.json holds only references (repo, path, commit) and hand-written labels — never the code. The
 * code is read from a cache outside the repository (`DYNALINT_CORPUS_CACHE`, default /work/.corpus-cache, laid out as
 * <cache>/<owner>/<name>/<commit>/<path>). The cached files are copied into a temporary folder (keeping their file
 * names, so the extension picks the language), linted by the built CLI exactly as users run it
 * (`node dist/cli.js lint --format json <dir>`), and the findings at warning/error level are compared with the labels.
 *
 * A finding matches a label when its rule is one of the label's rules (`rule` may list alternatives as `a|b`) and its
 * 1-based line lies in [line, endLine ?? line]. Labels in `uncertain` are excluded from scoring: a finding matching one
 * counts neither as found nor as a false alarm.
 *
 * Usage: tsx scripts/corpus.ts [--cli path/to/dist/cli.js] [--corpus test/corpus/corpus.json] [--cache dir] [--json]
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';

interface Label {
  rule: string;
  line: number;
  endLine?: number;
  why: string;
}

interface CorpusFile {
  repo: string;
  path: string;
  commit: string;
  language: string;
  style?: string;
  labels: Label[];
  clean?: true;
  uncertain?: Label[];
}

interface Finding {
  ruleId: string;
  severity: string;
  message: string;
  line: number;
}

interface Located {
  file: string;
  line: number;
  rule: string;
  text: string;
}

interface RuleStats {
  labelled: number;
  found: number;
  missed: number;
  falsePositives: number;
  truePositiveFindings: number;
  recall: number | null;
  precision: number | null;
}

const ROOT = resolve(__dirname, '..');

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function ruleAlternatives(label: Label): string[] {
  return label.rule.split('|').map((r) => r.trim());
}

function matches(label: Label, f: Finding): boolean {
  return ruleAlternatives(label).includes(f.ruleId) && f.line >= label.line && f.line <= (label.endLine ?? label.line);
}

function ratio(n: number, d: number): number | null {
  return d === 0 ? null : n / d;
}

function pct(x: number | null): string {
  return x === null ? '—' : `${(x * 100).toFixed(0)}%`;
}

function main(): void {
  const cli = resolve(arg('--cli') ?? join(ROOT, 'dist', 'cli.js'));
  const corpusPath = resolve(arg('--corpus') ?? join(ROOT, 'test', 'corpus', 'corpus.json'));
  const cache = resolve(arg('--cache') ?? process.env.DYNALINT_CORPUS_CACHE ?? '/work/.corpus-cache');
  const asJson = process.argv.includes('--json');

  if (!existsSync(cli)) {
    console.error(`corpus: ${cli} does not exist; run \`npm run build\` first (or pass --cli).`);
    process.exit(2);
  }
  const corpus = JSON.parse(readFileSync(corpusPath, 'utf8')) as { files: CorpusFile[] };

  // Copy what the cache has into a temporary folder, one subfolder per entry (names may repeat across repos).
  const tmp = mkdtempSync(join(tmpdir(), 'dynalint-corpus-'));
  const missing: CorpusFile[] = [];
  const present: { entry: CorpusFile; rel: string }[] = [];
  corpus.files.forEach((entry, i) => {
    const src = join(cache, entry.repo, entry.commit, entry.path);
    if (!existsSync(src)) {
      missing.push(entry);
      return;
    }
    const rel = join(`f${String(i).padStart(3, '0')}`, basename(entry.path));
    mkdirSync(join(tmp, `f${String(i).padStart(3, '0')}`), { recursive: true });
    copyFileSync(src, join(tmp, rel));
    present.push({ entry, rel });
  });
  if (missing.length > 0) {
    console.error(
      `corpus: ${missing.length} of ${corpus.files.length} files are not available locally under ${cache} ` +
        '(they are scored as absent, not as clean):',
    );
    for (const m of missing) console.error(`  ${m.repo}@${m.commit.slice(0, 10)} ${m.path}`);
  }
  if (present.length === 0) {
    console.error('corpus: no corpus file is available locally; nothing to measure.');
    rmSync(tmp, { recursive: true, force: true });
    process.exit(2);
  }

  // Lint them all in one run of the built CLI, as a user would.
  const run = spawnSync(process.execPath, [cli, 'lint', '--format', 'json', '.'], {
    cwd: tmp,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (run.status !== 0 && run.status !== 1) {
    console.error(`corpus: the linter failed (exit ${run.status}):\n${run.stderr}`);
    rmSync(tmp, { recursive: true, force: true });
    process.exit(2);
  }
  const reports = JSON.parse(run.stdout) as {
    file: string;
    diagnostics: { ruleId: string; severity: string; message: string; range: { start: { line: number } } }[];
  }[];
  const byFile = new Map<string, Finding[]>();
  for (const r of reports) {
    const key = resolve(tmp, r.file);
    byFile.set(
      key,
      r.diagnostics.map((d) => ({ ruleId: d.ruleId, severity: d.severity, message: d.message, line: d.range.start.line + 1 })),
    );
  }
  rmSync(tmp, { recursive: true, force: true });

  const stats = new Map<string, RuleStats>();
  const stat = (rule: string): RuleStats => {
    let s = stats.get(rule);
    if (!s) {
      s = { labelled: 0, found: 0, missed: 0, falsePositives: 0, truePositiveFindings: 0, recall: null, precision: null };
      stats.set(rule, s);
    }
    return s;
  };
  const misses: Located[] = [];
  const falseAlarms: Located[] = [];
  const notLinted: string[] = [];
  const onUncertain: Located[] = [];
  let belowWarning = 0;

  for (const { entry, rel } of present) {
    const name = `${entry.repo}/${entry.path}`;
    const all = byFile.get(resolve(tmp, rel));
    if (all === undefined) notLinted.push(name);
    const findings = (all ?? []).filter((f) => {
      const keep = f.severity === 'error' || f.severity === 'warning';
      if (!keep) belowWarning++;
      return keep;
    });
    const foundLabels = new Set<Label>();
    for (const f of findings) {
      const label = entry.labels.find((l) => matches(l, f));
      if (label) {
        foundLabels.add(label);
        stat(f.ruleId).truePositiveFindings++;
        continue;
      }
      if ((entry.uncertain ?? []).some((l) => matches(l, f))) {
        onUncertain.push({ file: name, line: f.line, rule: f.ruleId, text: f.message });
        continue;
      }
      stat(f.ruleId).falsePositives++;
      falseAlarms.push({ file: name, line: f.line, rule: f.ruleId, text: f.message });
    }
    for (const l of entry.labels) {
      const s = stat(ruleAlternatives(l)[0]);
      s.labelled++;
      if (foundLabels.has(l)) s.found++;
      else {
        s.missed++;
        misses.push({ file: name, line: l.line, rule: l.rule, text: l.why });
      }
    }
  }
  const total: RuleStats = {
    labelled: 0,
    found: 0,
    missed: 0,
    falsePositives: 0,
    truePositiveFindings: 0,
    recall: null,
    precision: null,
  };
  for (const s of stats.values()) {
    s.recall = ratio(s.found, s.labelled);
    s.precision = ratio(s.truePositiveFindings, s.truePositiveFindings + s.falsePositives);
    total.labelled += s.labelled;
    total.found += s.found;
    total.missed += s.missed;
    total.falsePositives += s.falsePositives;
    total.truePositiveFindings += s.truePositiveFindings;
  }
  total.recall = ratio(total.found, total.labelled);
  total.precision = ratio(total.truePositiveFindings, total.truePositiveFindings + total.falsePositives);
  const rules = [...stats.keys()].sort();

  const byLanguage: Record<string, number> = {};
  for (const { entry } of present) byLanguage[entry.language] = (byLanguage[entry.language] ?? 0) + 1;
  const summary = {
    cli,
    files: corpus.files.length,
    measured: present.length,
    missingLocally: missing.map((m) => `${m.repo}@${m.commit} ${m.path}`),
    notLinted,
    byLanguage,
    cleanFiles: present.filter((p) => p.entry.labels.length === 0).length,
    uncertainLabels: present.reduce((n, p) => n + (p.entry.uncertain?.length ?? 0), 0),
    findingsOnUncertainLabels: onUncertain,
    findingsBelowWarning: belowWarning,
    rules: Object.fromEntries(rules.map((r) => [r, stats.get(r)])),
    total,
    misses,
    falseAlarms,
  };
  if (asJson) {
    console.log(JSON.stringify(summary, null, 2));
    return;
  }

  console.log(`Dynalint corpus: ${present.length} of ${corpus.files.length} files measured with ${cli}`);
  console.log(
    `  by language: ${Object.entries(byLanguage)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}; ${summary.cleanFiles} labelled clean; ${summary.uncertainLabels} uncertain labels ` +
      `(${onUncertain.length} findings on them, not scored); ${belowWarning} info/hint findings ignored`,
  );
  if (notLinted.length > 0) console.log(`  not reported by the linter at all: ${notLinted.join(', ')}`);
  console.log('');
  const head = ['rule', 'labelled', 'found', 'missed', 'false+', 'recall', 'precision'];
  const rows = rules.map((r) => {
    const s = stats.get(r)!;
    return [r, s.labelled, s.found, s.missed, s.falsePositives, pct(s.recall), pct(s.precision)].map(String);
  });
  rows.push(
    ['TOTAL', total.labelled, total.found, total.missed, total.falsePositives, pct(total.recall), pct(total.precision)].map(
      String,
    ),
  );
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const fmt = (r: string[]): string => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(fmt(head));
  for (const r of rows) console.log(fmt(r));
  console.log(`\nMisses (${misses.length}):`);
  for (const m of misses) console.log(`  ${m.file}:${m.line}  ${m.rule}  — ${m.text}`);
  console.log(`\nFalse alarms (${falseAlarms.length}):`);
  for (const f of falseAlarms) console.log(`  ${f.file}:${f.line}  ${f.rule}  — ${f.text}`);
  console.log(`\nFindings on uncertain labels, not scored (${onUncertain.length}):`);
  for (const f of onUncertain) console.log(`  ${f.file}:${f.line}  ${f.rule}`);
}

main();
