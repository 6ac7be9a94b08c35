/**
 * Write one request in every host dialect, so a case is described once and checked in JSON, SDK v3 low-level,
 * lib-dynamodb, SDK v2 DocumentClient, boto3 client and boto3 resource. Objects are written on one line in the same
 * layout the fixes use (`{ k: v }` TS, `{"k": v}` JSON, `{'k': v}` Python), so expected texts after a fix are
 * produced by the same renderer.
 */
import type { Dialect } from './check';

/** A number that boto3 resource code writes as `Decimal(n)` (what fixes add). */
export interface Dec {
  dec: string;
}
/** Host code written as is (e.g. a variable). */
export interface Raw {
  raw: string;
}
export type V = string | number | boolean | null | Dec | Raw | V[] | { [k: string]: V };
export const dec = (n: string | number): Dec => ({ dec: String(n) });
export const raw = (code: string): Raw => ({ raw: code });

const isDec = (v: V): v is Dec | Raw => !!v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 1 && ('dec' in v || 'raw' in v);
const lowLevel = (d: Dialect) => d === 'json' || d === 'ts-v3' || d === 'py-client';
const isPy = (d: Dialect) => d === 'py-client' || d === 'py-resource';

/** Native value -> AttributeValue map for low-level dialects. */
function av(v: V): V {
  if (typeof v === 'string') return { S: v };
  if (typeof v === 'number') return { N: String(v) };
  if (isDec(v)) return 'raw' in v ? v : { N: v.dec };
  if (typeof v === 'boolean') return { BOOL: v };
  if (v === null) return { NULL: true };
  if (Array.isArray(v)) return { L: v.map(av) };
  return { M: Object.fromEntries(Object.entries(v).map(([k, x]) => [k, av(x)])) };
}

const AV_MAPS = new Set(['Item', 'Key', 'ExpressionAttributeValues']);

function styled(v: V, low: boolean): V {
  if (Array.isArray(v)) return v.map((x) => styled(x, low));
  if (!v || typeof v !== 'object' || isDec(v)) return v;
  return Object.fromEntries(
    Object.entries(v).map(([k, x]) => {
      if (AV_MAPS.has(k) && x && typeof x === 'object' && !Array.isArray(x) && !isDec(x))
        return [k, Object.fromEntries(Object.entries(x).map(([kk, xx]) => [kk, low ? av(xx) : xx]))];
      return [k, styled(x, low)];
    }),
  );
}

function lit(d: Dialect, v: V): string {
  const q = (s: string) => (d === 'json' ? JSON.stringify(s) : `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`);
  if (typeof v === 'string') return q(v);
  if (typeof v === 'number') return String(v);
  if (typeof v === 'boolean') return isPy(d) ? (v ? 'True' : 'False') : String(v);
  if (v === null) return isPy(d) ? 'None' : 'null';
  if (isDec(v)) return 'raw' in v ? v.raw : d === 'py-resource' ? `Decimal(${v.dec})` : v.dec;
  if (Array.isArray(v)) return `[${v.map((x) => lit(d, x)).join(', ')}]`;
  const ts = !isPy(d) && d !== 'json';
  const key = (k: string) => (ts && /^[A-Za-z_$][\w$]*$/.test(k) ? k : q(k));
  const body = Object.entries(v).map(([k, x]) => `${key(k)}: ${lit(d, x)}`).join(', ');
  return ts ? (body ? `{ ${body} }` : '{}') : `{${body}}`;
}

const snake = (s: string) => s.replace(/[A-Z]/g, (c, i: number) => (i ? '_' : '') + c.toLowerCase());
const docName = (api: string) => api.replace(/Item$|Items$/, '');

/** The request as a statement in the dialect (a whole JSON document for `json`). */
export function render(d: Dialect, api: string, params: Record<string, V>): string {
  const p = styled(params, lowLevel(d)) as Record<string, V>;
  switch (d) {
    case 'json':
      return lit(d, p) + '\n';
    case 'ts-v3':
      return `client.send(new ${api}Command(${lit(d, p)}));\n`;
    case 'ts-doc':
      return `doc.send(new ${docName(api)}Command(${lit(d, p)}));\n`;
    case 'js-v2': {
      const m = docName(api);
      return `docClient.${m[0].toLowerCase()}${m.slice(1)}(${lit(d, p)}).promise();\n`;
    }
    case 'py-client':
    case 'py-resource': {
      const entries = Object.entries(p).filter(([k]) => !(d === 'py-resource' && k === 'TableName'));
      const recv = d === 'py-client' ? 'client' : 'table';
      return `${recv}.${snake(api)}(${entries.map(([k, x]) => `${k}=${lit(d, x)}`).join(', ')})\n`;
    }
  }
}

export const ALL_DIALECTS: Dialect[] = ['json', 'ts-v3', 'ts-doc', 'js-v2', 'py-client', 'py-resource'];
/** Dialects that can send a transaction as written (boto3's Table has no transact_write_items). */
export const TRANSACT_DIALECTS: Dialect[] = ['json', 'ts-v3', 'ts-doc', 'js-v2', 'py-client'];
