/**
 * Code lenses above recognised counter transactions: a TransactWriteItems that creates (Put) or removes (Delete) a
 * child item and updates a counter on a parent (`ADD n :v`, `SET n = n ± :v`). The lens offers the reconcile command
 * with the pattern read from the code: table, counter, parent sort key, child sort-key prefix. Pure: no I/O.
 */
import { Range, RequestSite, VNode, prop } from '../extract/model';
import { Operation, operationsOf } from '../extract/operations';
import { counterActions, updateOf } from '../rules/analysis';
import type { TableLookup } from '../tables';
import { nameText } from '../tables/model';

export interface ReconcileLensArgs {
  /** The table's name: the request's literal, else the literal name of the one definition the workspace resolves it to. */
  table?: string;
  /** Key attribute names from the table's definition (only when the workspace defines the table unambiguously). */
  partitionKey?: string;
  sortKey?: string;
  /** Where the table is defined (`LikesTable (template.yaml:4)`), for the command's prompts. */
  definedAt?: string;
  counter: string;
  /** The child's literal sort-key prefix up to and including its first '#'. */
  childPrefix: string;
  /** The parent's literal sort key, when written as a literal. */
  parentSk?: string;
}

export interface LensTarget {
  range: Range;
  title: string;
  args: ReconcileLensArgs;
}

/** The node holding a key attribute's value: `{S: "x"}` -> `"x"` in low-level style. */
function inner(node: VNode | undefined, style: RequestSite['style']): VNode | undefined {
  if (style === 'low-level' && node?.kind === 'object' && node.properties.length === 1) return node.properties[0].value;
  return node;
}

/** The literal head of a string value: the whole literal, or the text before the first substitution of a template. */
export function literalHead(node: VNode | undefined): string | undefined {
  if (node?.kind === 'string') return node.value;
  if (node?.kind !== 'unknown' || !node.text) return undefined;
  // `LIKE#USER#${id}`, f"LIKE#USER#{uid}", "LIKE#" + id, 'LIKE#%s' % uid
  const m = /^(?:[rRbBuU]?[fF][rR]?|[rR]?[fF])?(`|"|')((?:[^`"'${\\]|\\.)*)/.exec(node.text.trim());
  return m ? m[2] : undefined;
}

function prefixOf(head: string | undefined): string | undefined {
  const i = head?.indexOf('#') ?? -1;
  return head && i > 0 ? head.slice(0, i + 1) : undefined;
}

const SORT_KEY_NAME = /(^|_)(sk|sort|range)|sortkey|rangekey|^sk$/i;

interface Child {
  op: Operation;
  values: Map<string, VNode | undefined>;
}

function childOf(op: Operation): Child | undefined {
  const map = op.kind === 'Put' ? prop(op.params, 'Item') : op.kind === 'Delete' ? prop(op.params, 'Key') : undefined;
  if (map?.kind !== 'object') return undefined;
  return { op, values: new Map(map.properties.map((p) => [p.key, inner(p.value, op.site.style)])) };
}

/**
 * What the workspace's definitions tell about an operation's table: its name and key attribute names, when every
 * candidate definition agrees (one definition, or several with the same keys and name). Unknown: nothing.
 */
export function tableDefaults(tables: TableLookup | undefined, op: Operation): Pick<ReconcileLensArgs, 'table' | 'partitionKey' | 'sortKey' | 'definedAt'> {
  const m = tables?.forOperation(op);
  if (!m?.tables.length) return {};
  const [first, ...rest] = m.tables;
  const same = <T>(f: (t: typeof first) => T) => rest.every((t) => f(t) === f(first));
  if (!same((t) => t.partition.name) || !same((t) => t.sort?.name)) return {};
  const literal = first.name && 'literal' in first.name ? first.name.literal : undefined;
  const name = literal && same((t) => nameText(t.name)) ? literal : undefined;
  return {
    ...(name ? { table: name } : {}),
    partitionKey: first.partition.name,
    ...(first.sort ? { sortKey: first.sort.name } : {}),
    ...(rest.length ? {} : { definedAt: `${first.logicalId ?? nameText(first.name) ?? 'table'} (${first.location.label})` }),
  };
}

export function lensTargets(sites: RequestSite[], tables?: TableLookup): LensTarget[] {
  const out: LensTarget[] = [];
  for (const site of sites) {
    if (site.api !== 'TransactWriteItems') continue;
    const ops = operationsOf(site);
    const children = ops.map(childOf).filter((c): c is Child => !!c);
    const seen = new Set<string>();
    for (const op of ops) {
      if (op.kind !== 'Update') continue;
      const upd = updateOf(op.params);
      const key = prop(op.params, 'Key');
      if (!upd || key?.kind !== 'object') continue;
      const counters = counterActions(op, upd).filter((c) => !c.key.includes('.') && !c.key.includes('['));
      if (!counters.length) continue;
      const defined = tableDefaults(tables, op);
      for (const child of children) {
        if (child.op.table !== op.table) continue;
        // The sort key: a key attribute whose child value has a literal prefix the parent's value does not share.
        const candidates = key.properties
          .map((p) => {
            const parentHead = literalHead(inner(p.value, site.style));
            const childPrefix = prefixOf(literalHead(child.values.get(p.key)));
            return { name: p.key, parentHead, childPrefix, literal: inner(p.value, site.style)?.kind === 'string' };
          })
          .filter((c) => c.childPrefix && !(c.parentHead ?? '').startsWith(c.childPrefix));
        // The definition's sort key wins; else a name that looks like a sort key; else the last candidate.
        const sk =
          (defined.sortKey ? candidates.find((c) => c.name === defined.sortKey) : undefined) ??
          candidates.find((c) => SORT_KEY_NAME.test(c.name)) ??
          candidates[candidates.length - 1];
        if (!sk?.childPrefix) continue;
        for (const c of counters) {
          const table = op.table ?? defined.table;
          const args: ReconcileLensArgs = {
            ...(table ? { table } : {}),
            ...(defined.partitionKey ? { partitionKey: defined.partitionKey } : {}),
            ...(defined.sortKey ? { sortKey: defined.sortKey } : {}),
            ...(defined.definedAt ? { definedAt: defined.definedAt } : {}),
            counter: c.key,
            childPrefix: sk.childPrefix,
            ...(sk.literal ? { parentSk: sk.parentHead } : {}),
          };
          const id = JSON.stringify(args);
          if (seen.has(id)) continue;
          seen.add(id);
          out.push({ range: site.nameRange, title: `Reconcile ${c.key} with its ${sk.childPrefix} children`, args });
        }
      }
    }
  }
  return out;
}
