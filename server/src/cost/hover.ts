/**
 * The cost hover: short, scannable Markdown over `estimate()`. The LSP layer shows it when the cursor is on the
 * operation name, the `TransactItems` key or an expression key of a request.
 */
import type { RequestSite } from '../extract/model';
import type { DynalintSettings } from '../protocol/settings';
import type { TableLookup } from '../tables';
import type { IndexWrite } from './indexes';
import { codeSpan, escapeMarkdown } from '../language/markdown';
import { CostEstimate, OperationEstimate, estimate, formatBytes } from './estimate';

/** USD with up to 3 significant digits and at least 2 decimals: `$2.50`, `$0.70`, `$0.0625`, `$0.0000025`. */
export function formatUsd(x: number): string {
  if (x === 0) return '$0';
  if (x >= 1) return `$${x.toFixed(2)}`;
  const digits = Math.min(12, 1 - Math.floor(Math.log10(x)) + 1);
  return `$${x.toFixed(digits).replace(/(\.\d\d\d*?)0+$/, '$1')}`;
}

export function formatUnits(n: number, unit: string): string {
  return `${Number.isInteger(n) ? n : n.toFixed(1)} ${unit}`;
}

function label(o: OperationEstimate): string {
  // The table name is the document's text: a code span nothing in it can close, `|` escaped for the table cell.
  const where = o.table ? ` ${codeSpan(o.table, { inTable: true })}` : '';
  return `${o.kind}${where}`;
}

function sizeCell(o: OperationEstimate): string {
  if (o.kind === 'Query' || o.kind === 'Scan') {
    return `${o.itemsKnown ? '' : '~'}${o.items} × ${formatBytes(o.size.bytes)}${o.size.source === 'assumed' ? ' (assumed)' : ''}`;
  }
  const per = `${formatBytes(o.size.bytes)}${o.size.source === 'assumed' ? ' (assumed)' : ''}`;
  return o.items === 1 ? per : `${o.items} × ${per}`;
}

function unitsCell(o: OperationEstimate): string {
  const how = o.consistency === 'transactional' || (o.transactional && o.unit === 'WCU') ? 'transactional' : o.consistency;
  return formatUnits(o.units, o.unit) + (how ? ` (${how})` : '');
}

function indexRow(w: IndexWrite): string {
  const what = `${w.kind === 'global' ? 'GSI' : 'LSI'} ${codeSpan(w.index, { inTable: true })}${w.projection ? ` (${escapeMarkdown(w.projection)})` : ''}`;
  const size = `${formatBytes(w.bytes)}${w.size === 'assumed' ? ' (assumed)' : w.size === 'keys' ? ' (keys shown)' : ''}`;
  const why = w.why === 'key change' ? 'key change: delete + put' : w.why;
  const capacity = w.kind === 'local' ? "; table's capacity" : '';
  return `| ↳ ${what} | ${size} | ${formatUnits(w.units, 'WCU')} (${why}${capacity}) |`;
}

function unitsSummary(e: CostEstimate): string {
  const parts: string[] = [];
  if (e.wcu && (e.gsiWcu || e.lsiWcu)) {
    const split = [`table ${formatUnits(e.wcu - e.gsiWcu - e.lsiWcu, 'WCU')}`];
    if (e.lsiWcu) split.push(`LSI ${formatUnits(e.lsiWcu, 'WCU')}`);
    if (e.gsiWcu) split.push(`GSI ${formatUnits(e.gsiWcu, 'WCU')}`);
    parts.push(`${formatUnits(e.wcu, 'WCU')} (${split.join(' + ')})`);
  } else if (e.wcu) parts.push(formatUnits(e.wcu, 'WCU'));
  if (e.rcu) parts.push(formatUnits(e.rcu, 'RCU'));
  return parts.join(' + ') || '0';
}

/** Markdown for a hover, from an estimate (exposed for the LSP and tests). */
export function renderCostHover(e: CostEstimate): string {
  const itemsTouched = e.operations.reduce((a, o) => a + o.items, 0);
  const anyGuess = e.operations.some((o) => !o.itemsKnown);
  const lines: string[] = [`**${escapeMarkdown(e.api)}** · cost estimate · ${anyGuess ? '~' : ''}${itemsTouched} item${itemsTouched === 1 ? '' : 's'} touched`, ''];
  if (!e.estimated) {
    lines.push('_The request shows no item-level operations to price (PartiQL statements or unreadable items)._');
    return lines.join('\n');
  }
  lines.push('| operation | item size | units |', '|---|---|---|');
  for (const o of e.operations) {
    lines.push(`| ${label(o)} | ${sizeCell(o)} | ${unitsCell(o)} |`);
    for (const w of o.indexWrites ?? []) lines.push(indexRow(w));
  }
  lines.push('');
  // The region comes from settings (a workspace may set it): escaped like any text.
  const region = escapeMarkdown(e.prices.source === 'fallback' ? `us-east-1 prices; no prices known for ${e.prices.region}` : e.prices.region);
  const provisioned = `${formatUsd(e.provisioned.perHour)}/hour (${formatUsd(e.provisioned.perMonth)}/month)`;
  if (!e.billing) {
    lines.push(`**Per call:** ${unitsSummary(e)} · **on-demand:** ${formatUsd(e.onDemand.perMillion)} per million calls (${region})`);
    lines.push(`**Provisioned** for 1 call/s: ${provisioned}`);
  } else {
    // The table's own mode first; the other mode after it, for comparison.
    const b = e.billing;
    const where = b.tables.map((t) => codeSpan(t)).join(', ');
    lines.push(`**Per call:** ${unitsSummary(e)} · billing mode ${codeSpan(b.mode)}${b.defaulted ? ' (BillingMode not given: the default)' : ''}, ${where}`);
    const onDemand = `${formatUsd(e.onDemand.perMillion)} per million calls (${region})`;
    if (b.mode === 'PAY_PER_REQUEST') {
      lines.push(`**On-demand** (this table): ${onDemand}`, `Provisioned instead, for 1 call/s: ${provisioned}`);
    } else {
      lines.push(`**Provisioned** (this table) for 1 call/s: ${provisioned}`, `On-demand instead: ${onDemand}`);
    }
  }
  if (e.assumptions.length) {
    lines.push('');
    for (const a of e.assumptions) lines.push(`_${a}_`);
  }
  if (e.advice.length) {
    lines.push('');
    for (const a of e.advice) lines.push(`- ${a}`);
  }
  return lines.join('\n');
}

/** Markdown hover: operation, items touched, sizes (known or assumed), units per call, cost per million, advice. */
export function costHover(site: RequestSite, settings: DynalintSettings, tables?: TableLookup): string {
  return renderCostHover(estimate(site, settings, tables));
}
