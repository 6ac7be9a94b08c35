/**
 * What GitHub code scanning asks of a SARIF upload beyond the schema: `partialFingerprints` that survive edits
 * elsewhere in the file (so an alert is not closed and reopened as new when a line is added above it), and rule help
 * text (shown in the alert's panel).
 */
import { createHash } from 'node:crypto';
import type { ReportingDescriptor } from 'sarif';
import type { Finding, Rule } from '../rules/types';

/** Whitespace runs as one space, trimmed: re-indentation and line-break style do not change a fingerprint. */
const normalise = (s: string): string => s.replace(/\s+/g, ' ').trim();

/** The text of the line holding `offset`. */
function lineAt(text: string, offset: number): string {
  const start = Math.max(text.lastIndexOf('\n', offset - 1), text.lastIndexOf('\r', offset - 1)) + 1;
  const ends = [text.indexOf('\n', offset), text.indexOf('\r', offset)].filter((i) => i >= 0);
  return text.slice(start, ends.length ? ends.reduce((m, e) => Math.min(m, e), Infinity) : text.length);
}

/** Longest part of a finding's own text that goes into its fingerprint (a whole request can be long). */
const MAX_SPAN = 400;

/**
 * One fingerprint per finding (same order): a hash of the rule id, the file, the normalised line the finding starts on
 * and the normalised text it covers, then `:n` counting earlier findings with the same hash in the file (identical
 * lines stay apart). Line numbers are not part of it. Stored under code scanning's key `primaryLocationLineHash`.
 */
export function fingerprints(file: string, text: string, findings: Finding[]): string[] {
  const seen = new Map<string, number>();
  const order = findings.map((f, i) => ({ f, i })).sort((a, b) => a.f.range.start - b.f.range.start || a.f.range.end - b.f.range.end || a.i - b.i);
  const out: string[] = new Array(findings.length);
  for (const { f, i } of order) {
    const span = normalise(text.slice(f.range.start, Math.min(f.range.end, f.range.start + MAX_SPAN)));
    const hash = createHash('sha256').update(`${f.ruleId}\u0000${file}\u0000${normalise(lineAt(text, f.range.start))}\u0000${span}`).digest('hex').slice(0, 32);
    const n = seen.get(hash) ?? 0;
    seen.set(hash, n + 1);
    out[i] = `${hash}:${n + 1}`;
  }
  return out;
}

export const FINGERPRINT_KEY = 'primaryLocationLineHash';

const SEVERITY_WORD: Record<string, string> = { error: 'error', warning: 'warning', info: 'info', hint: 'hint', off: 'off (opt in)' };

/** A rule's help for the alert panel: what it checks, its defaults, how to fix or silence it, its documentation. */
export function ruleHelp(rule: Rule): NonNullable<ReportingDescriptor['help']> {
  const fix = rule.meta.fixable ? 'Quick fix in the editor; `dynalint lint --fix` applies the safe fixes.' : 'No automatic fix.';
  const silence = `Silence one occurrence with \`// dynalint-disable-next-line ${rule.id}\` (\`#\` in Python), or set \`"${rule.id}": "off"\` in \`.dynalintrc.json\`.`;
  const facts = `Category: ${rule.meta.category}. Default severity: ${SEVERITY_WORD[rule.meta.defaultSeverity]}.`;
  return {
    text: `${rule.meta.description}\n\n${facts} ${fix.replace(/`/g, '')}\n${silence.replace(/`/g, '')}\n\nDocumentation: ${rule.meta.docs}`,
    markdown: `**${rule.meta.description}**\n\n${facts} ${fix}\n\n${silence}\n\n[Documentation of \`${rule.id}\`](${rule.meta.docs})`,
  };
}
