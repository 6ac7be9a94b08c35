/**
 * `.dynalintrc.json` (JSONC): `{ "rules": { "<rule-id>": "error" | "warning" | "info" | "hint" | "off" } }`.
 * ESLint's spellings are accepted too: `"warn"` and the numbers 0 (off), 1 (warning), 2 (error).
 * Found by walking up from a folder to the workspace root (or the filesystem root); the nearest file wins.
 * Problems (syntax, unknown rule ids, bad severities) come back with offsets into the file so the editor can show them.
 */
import { existsSync } from 'node:fs';
import { CONFIG_FILE_MAX_BYTES, readFailure, readTextFile } from '../io/read';
import { dirname, join, resolve } from 'node:path';
import { ParseError, getNodeValue, parseTree, printParseErrorCode, type Node } from 'jsonc-parser';
import type { Range } from '../extract/model';
import { allRules } from '../rules';
import type { Rule, SeveritySetting } from '../rules/types';
import { TABLES_SCHEMA } from '../tables/config-schema';

export const CONFIG_FILE = '.dynalintrc.json';
export const SEVERITY_SETTINGS: readonly SeveritySetting[] = ['error', 'warning', 'info', 'hint', 'off'];
/** ESLint spellings accepted in `.dynalintrc.json`, and what they mean. */
export const SEVERITY_ALIASES: ReadonlyMap<string | number, SeveritySetting> = new Map<string | number, SeveritySetting>([
  ['warn', 'warning'],
  [0, 'off'],
  [1, 'warning'],
  [2, 'error'],
]);
const ACCEPTED = `${SEVERITY_SETTINGS.map((s) => `"${s}"`).join(', ')} (ESLint's "warn", 0, 1, 2 also work)`;

/** The severity a config value names, if it names one. */
export function severityOf(value: unknown): SeveritySetting | undefined {
  if (typeof value === 'string' && (SEVERITY_SETTINGS as readonly string[]).includes(value)) return value as SeveritySetting;
  return typeof value === 'string' || typeof value === 'number' ? SEVERITY_ALIASES.get(value) : undefined;
}

export interface ConfigProblem {
  message: string;
  /** Offsets into the config file's text. */
  range: Range;
  /** 'error' for unreadable files and bad values, 'warning' for unknown rule ids. */
  severity: 'error' | 'warning';
}

export interface DynalintConfig {
  /** Absolute path of the file read, when one was found. */
  path?: string;
  rules: Record<string, SeveritySetting>;
  problems: ConfigProblem[];
}

/** Parse the text of a `.dynalintrc.json`; `knownRuleIds` flags ids that no rule has. */
export function parseConfig(text: string, knownRuleIds: ReadonlySet<string>): Omit<DynalintConfig, 'path'> {
  if (!text.trim()) return { rules: {}, problems: [] };
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  const problems: ConfigProblem[] = errors.map((e) => ({
    message: `Invalid JSON: ${printParseErrorCode(e.error)}`,
    range: { start: e.offset, end: e.offset + e.length },
    severity: 'error',
  }));
  const rules: Record<string, SeveritySetting> = {};
  const span = (n: Node): Range => ({ start: n.offset, end: n.offset + n.length });
  if (!root) return { rules, problems };
  if (root.type !== 'object') {
    problems.push({ message: 'The configuration must be an object: { "rules": { ... } }.', range: span(root), severity: 'error' });
    return { rules, problems };
  }
  for (const p of root.children ?? []) {
    const [k, v] = p.children ?? [];
    if (!k || !v) continue;
    if (k.value === '$schema' || k.value === 'tables') continue; // tables: read by the table index (tables/extract.ts)
    if (k.value !== 'rules') {
      problems.push({ message: `Unknown setting "${k.value}": only "rules" and "tables" are read.`, range: span(k), severity: 'warning' });
      continue;
    }
    if (v.type !== 'object') {
      problems.push({ message: '"rules" must map rule ids to a severity.', range: span(v), severity: 'error' });
      continue;
    }
    for (const r of v.children ?? []) {
      const [rk, rv] = r.children ?? [];
      if (!rk || !rv) continue;
      const id = String(rk.value);
      const value = getNodeValue(rv) as unknown;
      if (!knownRuleIds.has(id)) problems.push({ message: `Unknown rule id "${id}".`, range: span(rk), severity: 'warning' });
      const severity = severityOf(value);
      if (!severity) {
        problems.push({ message: `Invalid severity ${JSON.stringify(value)} for rule "${id}": use one of ${ACCEPTED}.`, range: span(rv), severity: 'error' });
        continue;
      }
      if (knownRuleIds.has(id)) rules[id] = severity;
    }
  }
  return { rules, problems };
}

/** The nearest `.dynalintrc.json` from `startDir` up to `stopDir` (inclusive; default: the filesystem root). */
export function findConfigFile(startDir: string, stopDir?: string): string | undefined {
  const stop = stopDir ? resolve(stopDir) : undefined;
  for (let dir = resolve(startDir); ; dir = dirname(dir)) {
    const candidate = join(dir, CONFIG_FILE);
    if (existsSync(candidate)) return candidate;
    if (dir === stop || dirname(dir) === dir) return undefined;
  }
}

/** Find and read the configuration for files in `startDir`. A missing file gives an empty configuration. */
export function loadConfig(startDir: string, options: { stopDir?: string; rules?: readonly Rule[] } = {}): DynalintConfig {
  const path = findConfigFile(startDir, options.stopDir);
  if (!path) return { rules: {}, problems: [] };
  const known = new Set((options.rules ?? allRules).map((r) => r.id));
  let text: string;
  try {
    text = readTextFile(path, CONFIG_FILE_MAX_BYTES).text;
  } catch (e) {
    return { path, rules: {}, problems: [{ message: `Cannot read ${CONFIG_FILE}: ${readFailure(e)}`, range: { start: 0, end: 0 }, severity: 'error' }] };
  }
  return { path, ...parseConfig(text, known) };
}

/** The JSON schema of `.dynalintrc.json` for a rule registry (the shipped schemas/dynalintrc.schema.json). */
export function configSchema(rules: readonly Rule[] = allRules): object {
  const severity = { enum: [...SEVERITY_SETTINGS, ...SEVERITY_ALIASES.keys()] };
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: 'https://github.com/dynalint/dynalint/blob/main/schemas/dynalintrc.schema.json',
    title: 'Dynalint configuration (.dynalintrc.json)',
    type: 'object',
    properties: {
      $schema: { type: 'string' },
      rules: {
        type: 'object',
        description: 'Severity per rule id: "error", "warning", "info", "hint" or "off" (ESLint\'s "warn", 0, 1 and 2 also work). VS Code settings (dynalint.rules) override these.',
        properties: Object.fromEntries(
          [...rules]
            .sort((a, b) => (a.id < b.id ? -1 : 1))
            .map((r) => [r.id, { ...severity, description: `${r.meta.description} Default: ${r.meta.defaultSeverity}.`, markdownDescription: `${r.meta.description} Default: \`${r.meta.defaultSeverity}\`. [Docs](${r.meta.docs})` }]),
        ),
        additionalProperties: false,
      },
      tables: TABLES_SCHEMA,
    },
    additionalProperties: false,
  };
}
