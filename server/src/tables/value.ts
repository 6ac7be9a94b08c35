/**
 * One small value tree for every definition source (YAML, JSON, TypeScript object literals, Python dicts, HCL blocks):
 * literals with their document ranges, maps, lists, CloudFormation intrinsics (`!Ref X` and `{"Ref": "X"}` alike) and
 * unknowns. Readers of table definitions work on this tree only.
 */
import { isAlias, isMap, isScalar, isSeq, type Node as YamlNode } from 'yaml';
import type { Node as JsonNode } from 'jsonc-parser';

export interface Span {
  start: number;
  end: number;
}

export type PNode =
  /** `pattern`: some parts are known only at run/deploy time and stand as `*` (`likes-${stage}`). */
  | { kind: 'str'; value: string; range: Span; pattern?: boolean }
  | { kind: 'num'; value: string; range: Span }
  | { kind: 'bool'; value: boolean; range: Span }
  | { kind: 'map'; entries: PEntry[]; range: Span }
  | { kind: 'list'; items: PNode[]; range: Span }
  /** A CloudFormation intrinsic function: `Ref`, `Sub`, `GetAtt`, `If`, `Join`, `ImportValue`... (without `Fn::`). */
  | { kind: 'fn'; name: string; arg: PNode; range: Span }
  | { kind: 'unknown'; text?: string; range: Span };

export interface PEntry {
  key: string;
  keyRange: Span;
  value: PNode;
}

export function get(n: PNode | undefined, key: string): PNode | undefined {
  if (n?.kind !== 'map') return undefined;
  for (let i = n.entries.length - 1; i >= 0; i--) if (n.entries[i].key === key) return n.entries[i].value;
  return undefined;
}

export function entry(n: PNode | undefined, key: string): PEntry | undefined {
  if (n?.kind !== 'map') return undefined;
  for (let i = n.entries.length - 1; i >= 0; i--) if (n.entries[i].key === key) return n.entries[i];
  return undefined;
}

export function strOf(n: PNode | undefined): string | undefined {
  return n?.kind === 'str' ? n.value : n?.kind === 'num' ? n.value : undefined;
}

/** The deepest value trees read; below, unknown (generated templates are flat; this bounds hostile nesting). */
const MAX_DEPTH = 64;

/** Long-form intrinsics: `{"Ref": "X"}`, `{"Fn::Sub": "..."}` become `fn` nodes. */
function intrinsic(entries: PEntry[], range: Span): PNode | undefined {
  if (entries.length !== 1) return undefined;
  const k = entries[0].key;
  if (k === 'Ref' || k === 'Condition') return { kind: 'fn', name: k, arg: entries[0].value, range };
  if (k.startsWith('Fn::')) return { kind: 'fn', name: k.slice(4), arg: entries[0].value, range };
  return undefined;
}

/** A `yaml` document node as a PNode: short-form tags (`!Ref`, `!Sub`, `!GetAtt`...) become intrinsics. */
export function fromYaml(node: unknown, depth = 0): PNode {
  const n = node as YamlNode | null | undefined;
  const r = (n as { range?: [number, number, number] } | null)?.range;
  const range: Span = r ? { start: r[0], end: r[1] } : { start: 0, end: 0 };
  if (!n || depth > MAX_DEPTH || isAlias(n)) return { kind: 'unknown', range };
  const tag = n.tag && n.tag.startsWith('!') && !n.tag.startsWith('!!') ? n.tag.slice(1) : undefined;
  const plain = (): PNode => {
    if (isScalar(n)) {
      const v = n.value;
      if (typeof v === 'string') return { kind: 'str', value: v, range };
      if (typeof v === 'number') return { kind: 'num', value: String(v), range };
      if (typeof v === 'boolean') return { kind: 'bool', value: v, range };
      return { kind: 'unknown', range };
    }
    if (isMap(n)) {
      const entries: PEntry[] = [];
      for (const p of n.items) {
        const k = p.key as YamlNode | null;
        if (!isScalar(k) || (typeof k.value !== 'string' && typeof k.value !== 'number')) continue;
        const kr = k.range ?? [0, 0, 0];
        entries.push({ key: String(k.value), keyRange: { start: kr[0], end: kr[1] }, value: fromYaml(p.value, depth + 1) });
      }
      return intrinsic(entries, range) ?? { kind: 'map', entries, range };
    }
    if (isSeq(n)) return { kind: 'list', items: n.items.map((i) => fromYaml(i, depth + 1)), range };
    return { kind: 'unknown', range };
  };
  const value = plain();
  if (!tag) return value;
  const name = tag.replace(/^Fn::/, '');
  // `!GetAtt A.Arn` is `{"Fn::GetAtt": ["A", "Arn"]}`.
  return { kind: 'fn', name, arg: value, range };
}

/** A jsonc-parser tree node as a PNode (long-form intrinsics become `fn` nodes). */
export function fromJson(n: JsonNode | undefined, depth = 0): PNode {
  if (!n) return { kind: 'unknown', range: { start: 0, end: 0 } };
  const range: Span = { start: n.offset, end: n.offset + n.length };
  if (depth > MAX_DEPTH) return { kind: 'unknown', range };
  switch (n.type) {
    case 'string':
      return { kind: 'str', value: String(n.value), range };
    case 'number':
      return { kind: 'num', value: String(n.value), range };
    case 'boolean':
      return { kind: 'bool', value: Boolean(n.value), range };
    case 'array':
      return { kind: 'list', items: (n.children ?? []).map((c) => fromJson(c, depth + 1)), range };
    case 'object': {
      const entries: PEntry[] = [];
      for (const p of n.children ?? []) {
        const [k, v] = p.children ?? [];
        if (!k || !v) continue;
        entries.push({ key: String(k.value), keyRange: { start: k.offset, end: k.offset + k.length }, value: fromJson(v, depth + 1) });
      }
      return intrinsic(entries, range) ?? { kind: 'map', entries, range };
    }
    default:
      return { kind: 'unknown', range };
  }
}
