/**
 * Data flow, host-independent: what a name or a property holds at a point, as one small value model shared by every
 * host. Hosts only bind their syntax to it (TypeScript's `let`/`if`/`push`/`Object.assign`, Python's assignments,
 * `append`/`update`/item assignment); the folding of branches, the alternatives, the bounds and the mutations live here.
 *
 * - A **state** is the set of values a name may hold at a point: a list of alternatives (each a `VNode`), or
 *   `undefined` when the name is unknown there (silent).
 * - **Alternatives** inside a value tree (`c ? {A} : {B}`, a name assigned in both arms of an `if`) are an
 *   `UnknownNode` placeholder registered here (`oneOf`): anything that does not expand them sees an unknown value, so
 *   unknown stays silent by construction. `variants` expands a request's parameters into at most `MAX_ALTERNATIVES`
 *   concrete trees (one `RequestSite` each, see `RequestSite.alternative`); beyond the cap, the placeholders stay
 *   unknown.
 * - **Mutations** (`Op`) are applied copy-on-write along the path they change, so alternatives that share a subtree
 *   never see each other's changes. Arrays stop growing at `MAX_ITEMS` (then incomplete): 10,000 `push` calls stay
 *   linear.
 */
import { cloneString } from '../core/strings';
import { UnkNode, cloneEntry, cloneObject, withProperties, withValue } from '../core/compact';
import { type ArrayNode, type ObjectNode, type Property, type Range, type VNode, unreadEntries } from '../core/values';

/** The most alternatives one request expands to; beyond it the alternatives stay unknown. */
export const MAX_ALTERNATIVES = 16;
/** The most items an array built step by step holds; beyond it, it is incomplete. */
export const MAX_ITEMS = 256;

const registry = new WeakMap<VNode, VNode[]>();

/** The alternatives a placeholder stands for, or undefined for an ordinary node. */
export function alternativesOf(n: VNode): VNode[] | undefined {
  return registry.get(n);
}

/** A value that is one of `values` (flattened, at most MAX_ALTERNATIVES): the value itself when there is one. */
export function oneOf(values: VNode[], range: Range, text?: string): VNode {
  const flat: VNode[] = [];
  for (const v of values) for (const x of registry.get(v) ?? [v]) flat.push(x);
  if (flat.length === 1) return flat[0];
  const placeholder: VNode = { kind: 'unknown', range: { ...range }, ...(text !== undefined ? { text } : {}) };
  if (flat.length && flat.length <= MAX_ALTERNATIVES) registry.set(placeholder, flat);
  return placeholder;
}

/**
 * The concrete trees a value stands for: every combination of its alternatives, in order. A tree without
 * alternatives is returned as is (`[v]`); more than `cap` combinations leave the placeholders unknown (`[v]`).
 */
export function variants(v: VNode, cap = MAX_ALTERNATIVES): VNode[] {
  const out = expand(v, cap, 0);
  return out ?? [v];
}

function expand(v: VNode, cap: number, depth: number): VNode[] | undefined {
  const alts = registry.get(v);
  if (alts) {
    const out: VNode[] = [];
    for (const a of alts) {
      const e = expand(a, cap, depth + 1) ?? [a];
      for (const x of e) out.push(x);
      if (out.length > cap) return undefined;
    }
    return out;
  }
  if (depth > 64) return undefined;
  if (v.kind === 'object') {
    let combos: Property[][] = [[]];
    let changed = false;
    for (const p of v.properties) {
      const e = expand(p.value, cap, depth + 1);
      if (!e) return undefined;
      if (e.length === 1 && e[0] === p.value) {
        for (const c of combos) c.push(p);
        continue;
      }
      changed = true;
      if (combos.length * e.length > cap) return undefined;
      combos = combos.flatMap((c) => e.map((value) => [...c, withValue(p, value)]));
    }
    return changed ? combos.map((properties) => withProperties(v, properties)) : [v];
  }
  if (v.kind === 'array') {
    let combos: VNode[][] = [[]];
    let changed = false;
    for (const item of v.items) {
      const e = expand(item, cap, depth + 1);
      if (!e) return undefined;
      if (e.length === 1 && e[0] === item) {
        for (const c of combos) c.push(item);
        continue;
      }
      changed = true;
      if (combos.length * e.length > cap) return undefined;
      combos = combos.flatMap((c) => e.map((x) => [...c, x]));
    }
    return changed ? combos.map((items) => ({ ...v, items })) : [v];
  }
  return [v];
}

/** Whether a tree holds a placeholder (cheap when `count` says none was ever made for it). */
export function hasAlternatives(v: VNode): boolean {
  const stack: VNode[] = [v];
  while (stack.length) {
    const n = stack.pop()!;
    if (registry.has(n)) return true;
    if (n.kind === 'object') for (const p of n.properties) stack.push(p.value);
    else if (n.kind === 'array') for (const x of n.items) stack.push(x);
  }
  return false;
}

/* ------------------------------------------------------------------------------------------------------------------ */
/* Mutations                                                                                                          */

/** A change to a name's value, as each host reads it from its syntax. */
export type Op =
  /** `p.A.B = v`, `p['A'] = v`, `p["A"]["B"] = v`: `keyRange` names the last key, `range` is the whole assignment. */
  | { kind: 'set'; path: string[]; keyRange: Range; value: VNode; range: Range }
  /** `Object.assign(p, {...})`, `p.update({...})`, `p = {...p, ...}` (the object's own entries). */
  | { kind: 'merge'; value: VNode }
  /** `delete p.A`, `del p['A']`, `p.pop('A')`. */
  | { kind: 'delete'; path: string[] }
  /** `a.push(x, ...y)`, `a.append(x)`, `a.extend(y)`, `a = a.concat(y)`, `a += y`: items (spreads already resolved). */
  | { kind: 'push'; items: VNode[]; complete: boolean; samples?: number; unread?: true }
  /** Anything else that may change it: the value is no longer whole. */
  | { kind: 'opaque'; deep: boolean };

/** The value after `op`, without changing `v` (copy-on-write along the changed path). */
export function apply(v: VNode, op: Op): VNode {
  const alts = registry.get(v);
  if (alts) return oneOf(alts.map((a) => apply(a, op)), v.range, v.kind === 'unknown' ? v.text : undefined);
  switch (op.kind) {
    case 'set':
      return setPath(v, op.path, 0, op);
    case 'delete':
      return deletePath(v, op.path, 0);
    case 'merge': {
      if (v.kind !== 'object') return v;
      const add = op.value.kind === 'object' ? op.value : undefined;
      return withProperties(v, add ? [...v.properties, ...add.properties] : v.properties, v.complete && !!add && add.complete);
    }
    case 'push': {
      if (v.kind !== 'array') return v;
      const room = MAX_ITEMS - v.items.length;
      const items = room >= op.items.length ? [...v.items, ...op.items] : [...v.items, ...op.items.slice(0, Math.max(0, room))];
      const samples = (v.samples ?? 0) + (op.samples ?? 0);
      const out: ArrayNode = { ...v, items, complete: v.complete && op.complete && room >= op.items.length };
      if (samples) out.samples = samples;
      // Entries nothing shows, on either side, stay so next to representatives (`unread`).
      if (samples && (unreadEntries(v) || op.unread || (!op.complete && !op.samples) || room < op.items.length)) out.unread = true;
      return out;
    }
    case 'opaque':
      return opaque(v, op.deep);
  }
}

function setPath(v: VNode, path: string[], i: number, op: Extract<Op, { kind: 'set' }>): VNode {
  const alts = registry.get(v);
  if (alts) return oneOf(alts.map((a) => setPath(a, path, i, op)), v.range, v.kind === 'unknown' ? v.text : undefined);
  // `p.Items[0] = x` on a list: not read, the list is no longer known.
  if (v.kind !== 'object') return opaque(v, true);
  const key = path[i];
  if (i === path.length - 1) {
    // Assigned entries go first: entries a fix adds go after the last one, which should be the literal's own.
    const properties = v.properties.filter((p) => p.key !== key);
    properties.unshift({ key, keyRange: { ...op.keyRange }, value: op.value, range: { ...op.range } });
    return withProperties(v, properties);
  }
  let found = false;
  const properties = v.properties.map((p) => {
    if (p.key !== key) return p;
    found = true;
    return withValue(p, setPath(p.value, path, i + 1, op));
  });
  // `p.X.y = v` where X is not known to be a map here: X may hold anything now.
  return found ? withProperties(v, properties) : withProperties(v, v.properties, false);
}

function deletePath(v: VNode, path: string[], i: number): VNode {
  const alts = registry.get(v);
  if (alts) return oneOf(alts.map((a) => deletePath(a, path, i)), v.range, v.kind === 'unknown' ? v.text : undefined);
  if (v.kind !== 'object') return opaque(v, true);
  const key = path[i];
  if (i === path.length - 1) return withProperties(v, v.properties.filter((p) => p.key !== key));
  return withProperties(v, v.properties.map((p) => (p.key === key ? withValue(p, deletePath(p.value, path, i + 1)) : p)));
}

/** The value marked not whole (and, when `deep`, every map and list inside it), on copies. */
export function opaque(v: VNode, deep: boolean): VNode {
  const alts = registry.get(v);
  if (alts) return oneOf(alts.map((a) => opaque(a, deep)), v.range, v.kind === 'unknown' ? v.text : undefined);
  if (v.kind !== 'object' && v.kind !== 'array') return v;
  // A list holding representatives (`samples`) may now hold entries nothing shows as well (`unread`).
  const unread = v.kind === 'array' && v.samples ? { unread: true as const } : {};
  if (v.kind === 'object') return withProperties(v, deep ? v.properties.map((p) => withValue(p, opaque(p.value, true))) : v.properties, false);
  if (!deep) return { ...v, complete: false, ...unread };
  return { ...v, complete: false, ...unread, items: v.items.map((x) => opaque(x, true)) };
}

/* ------------------------------------------------------------------------------------------------------------------ */
/* States: the alternatives a name holds at a point                                                                   */

/** The values a name may hold at a point (each a possible run), or undefined: unknown there. */
export type State = VNode[] | undefined;

/** Both arms of a branch may have run: the union of their states (unknown when either is, or past the cap). */
export function join(...states: (State | 'dead')[]): State | 'dead' {
  const live = states.filter((s): s is State => s !== 'dead');
  if (!live.length) return 'dead';
  if (live.some((s) => s === undefined)) return undefined;
  const out: VNode[] = [];
  for (const s of live) for (const v of s!) if (!out.includes(v)) out.push(v);
  return out.length > MAX_ALTERNATIVES ? undefined : out;
}

/** Apply a mutation to every alternative. */
export function applyAll(s: State, op: Op): State {
  return s && flatten(s.map((v) => apply(v, op)));
}

/** A state holding each alternative of its values as its own entry (undefined past the cap). */
export function flatten(values: VNode[]): State {
  const out: VNode[] = [];
  for (const v of values) for (const x of registry.get(v) ?? [v]) out.push(x);
  return out.length > MAX_ALTERNATIVES ? undefined : out;
}

/** The value of a state at a use: one value, alternatives, or an unknown node (`fallback`). */
export function valueOf(s: State | 'dead', fallback: VNode): VNode {
  if (!s || s === 'dead' || !s.length) return fallback;
  return oneOf(s, fallback.range, fallback.kind === 'unknown' ? fallback.text : undefined);
}

/** Alternatives of an object spread into a literal (`...(c ? { A } : {})`): every object combination, in order. */
export function spreadChoices(v: VNode): ObjectNode[] | undefined {
  const alts = registry.get(v);
  if (!alts) return v.kind === 'object' ? [v] : undefined;
  return alts.every((a) => a.kind === 'object') ? (alts as ObjectNode[]) : undefined;
}

/**
 * A deep copy of a value tree sharing no range or offset array with the original: sites are shifted in place after an
 * edit, so two sites (alternatives, a request forwarded through a helper) must never share a node.
 */
export function cloneTree(v: VNode): VNode {
  switch (v.kind) {
    case 'string':
      return cloneString(v);
    case 'object':
      return cloneObject(v, v.properties.map((p) => cloneEntry(p, cloneTree(p.value))));
    case 'array':
    case 'set':
      return { ...v, range: { ...v.range }, items: v.items.map(cloneTree) } as VNode;
    default:
      if (v instanceof UnkNode) return new UnkNode(v.text, v.type, v.s, v.e);
      return { ...v, range: { ...v.range } };
  }
}
