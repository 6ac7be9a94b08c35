/**
 * What the VS Code reconcile UI says, kept free of `vscode` so it is tested as plain functions: where a connection
 * sends requests and as whom, which connections may be used at all, and how a repair's results (partial or not) read
 * per row and in the notification.
 */
import type { ConnectionSetting } from '../../../server/src/protocol/settings';
import { endpointProblem } from '../../../server/src/reconcile/client';
import { possiblyText } from '../../../server/src/reconcile/format';
import type { RepairReport } from '../../../server/src/reconcile/types';

/**
 * Text for a VS Code notification: notifications turn `[label](https://…)` and `[label](command:…)` into live links,
 * so text that may hold an endpoint's words or table data has that syntax broken (a zero-width space between `]` and
 * `(`); it reads the same.
 */
export function noticeText(text: string): string {
  return text.replace(/\]\s*\(/g, (m) => m.replace('(', '\u200b('));
}

/** The endpoint a connection sends to, named even when it is the default. */
export function endpointOf(c: ConnectionSetting): string {
  return c.endpoint ? c.endpoint : `AWS endpoint of ${c.region ? `region ${c.region}` : 'the default region'}`;
}

/** The credentials a connection signs with, named even when they are the default chain. */
export function credentialsOf(c: ConnectionSetting): string {
  return c.profile ? `profile ${c.profile}` : 'default AWS credentials';
}

/** "endpoint · credentials": shown in the picker's detail, the confirmation and the results page. */
export function connectionDetail(c: ConnectionSetting): string {
  return `${endpointOf(c)} · ${credentialsOf(c)}`;
}

/** Why a configured connection must not be used (plain http to a non-loopback host...), or undefined. */
export function connectionProblem(c: ConnectionSetting): string | undefined {
  return c.endpoint !== undefined ? endpointProblem(c.endpoint) : undefined;
}

export interface RowOutcome {
  index: number;
  text: string;
  ok: boolean;
}

/** One line per repaired row, for the results page (`indexes[i]` is the page row of `result.results[i]`). */
export function rowOutcomes(result: RepairReport, indexes: number[]): RowOutcome[] {
  return result.results.slice(0, indexes.length).map((r, i) => {
    const o = r.outcome;
    let text: string;
    let ok = false;
    switch (o.status) {
      case 'repaired':
        text = `✔ ${o.from ?? 'missing'} → ${o.to}`;
        ok = true;
        break;
      case 'already-correct':
        text = `already ${o.value}`;
        ok = true;
        break;
      case 'changed':
        text = 'skipped: changed meanwhile';
        break;
      case 'no-parent':
        text = 'skipped: no parent item';
        break;
      case 'not-attempted':
        text = `not attempted (${o.reason})`;
        break;
      case 'failed':
        text = `failed: ${o.error}`;
        break;
      case 'possibly-written':
        text = `possibly written (answer lost): ${possiblyText(o)}`;
        ok = o.found === 'written';
        break;
    }
    return { index: indexes[i], text, ok };
  });
}

/** The notification after a repair: how many written, and what stopped it. */
export function repairNotice(result: RepairReport, asked: number): { level: 'info' | 'warning' | 'error'; text: string } {
  const count = (s: string) => result.results.filter((r) => r.outcome.status === s).length;
  const parts = [`${result.written} of ${asked} counter(s) written`];
  const possibly = result.results.filter((r) => r.outcome.status === 'possibly-written' && r.outcome.found !== 'written').length;
  if (possibly) parts.push(`${possibly} possibly written (answer lost; see the page)`);
  if (count('failed')) parts.push(`${count('failed')} failed`);
  // After a stop, how many were left; otherwise a not-attempted row is a deliberate skip, shown on its row.
  if (result.partial && count('not-attempted')) parts.push(`${count('not-attempted')} not attempted`);
  const text = noticeText(`Dynalint: ${parts.join(', ')}.` + (result.partial ? ` ${result.partial.message}` : ''));
  return { level: result.partial?.reason === 'error' ? 'error' : result.partial || possibly ? 'warning' : 'info', text };
}

/**
 * Run a repair so that it never rejects: a failure before the first write (the key schema could not be read, access
 * denied...) comes back as `error`, with nothing written.
 */
export async function settle(run: () => Promise<RepairReport>): Promise<{ report: RepairReport } | { error: string }> {
  try {
    return { report: await run() };
  } catch (e) {
    return { error: (e as Error)?.message ?? String(e) };
  }
}
