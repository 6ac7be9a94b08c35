/**
 * Builds VNode trees and RequestSites from plain JS values, for cost tests: strings, numbers, booleans, null, arrays
 * and objects map to their nodes; a `Set` to a set node; `UNKNOWN` to an unknown node; a `Uint8Array` to binary of its length; `num('1.50')` keeps a number's
 * text as written.
 */
import type { Api, HostLanguage, ObjectNode, RequestSite, ValueStyle, VNode } from '../../../server/src/extract/model';

const r = { start: 0, end: 0 };
export const UNKNOWN = Symbol('unknown');
const NUM = Symbol('num');
export const num = (text: string) => ({ [NUM]: text });

export function v(x: unknown): VNode {
  if (x === UNKNOWN) return { kind: 'unknown', range: r, text: 'x' };
  if (typeof x === 'string') return { kind: 'string', value: x, offsets: [...Array(x.length + 1).keys()], range: r };
  if (typeof x === 'number') return { kind: 'number', text: String(x), range: r };
  if (typeof x === 'boolean') return { kind: 'bool', value: x, range: r };
  if (x === null) return { kind: 'null', range: r };
  if (x instanceof Set) return { kind: 'set', items: [...x].map(v), range: r };
  if (x instanceof Uint8Array) return { kind: 'binary', range: r, length: x.length };
  if (Array.isArray(x)) return { kind: 'array', items: x.map(v), complete: true, range: r };
  if (typeof x === 'object' && NUM in x) return { kind: 'number', text: (x as Record<symbol, string>)[NUM], range: r };
  if (typeof x === 'object') {
    return {
      kind: 'object',
      complete: true,
      range: r,
      properties: Object.entries(x).map(([key, value]) => ({ key, keyRange: r, value: v(value), range: r })),
    };
  }
  throw new Error(`cannot build a node from ${String(x)}`);
}

export function obj(x: Record<string, unknown>): ObjectNode {
  return v(x) as ObjectNode;
}

export function site(api: Api, style: ValueStyle, params: Record<string, unknown>, host: HostLanguage = 'typescript'): RequestSite {
  return { api, apiSource: 'call', style, host, range: r, nameRange: r, params: obj(params), sdk: style === 'low-level' ? 'sdk-v3' : 'sdk-v3-lib' };
}
