/**
 * Every finding of the expression validator surfaces as a rule (one per `EXPRESSION_FINDINGS` id, category
 * `expression`). Each request operation is turned into an `ExpressionRequest` once per lint and validated once; the
 * per-id rules share the result and map findings back to document ranges (through string escapes, concatenation and
 * resolved constants) and attach the issue-8 fixes.
 */
import { AttrType, Range, RequestSite, StringNode, attrType, prop, propEntry, scalarText, stringRange } from '../extract/model';
import { Operation, OperationKind, operationsOf } from '../extract/operations';
import { EXPRESSION_FIELDS, EXPRESSION_FINDINGS, ExpressionField, ExpressionFinding, ExpressionRequest, FindingLocation, RequestOperation, ValueInfo, validateRequest } from '../expression';
import { FixKind, defineNameFix, defineValueFix, mergeClausesFix, redundantParensFix, removeMapFix, removeUnusedFix, reservedWordsFix } from '../fix/expression-fixes';
import { DOCS_BASE, Finding, Fix, Rule, RuleContext } from './types';

/** Which validator findings have which fix (issue 8). */
export const FIX_KIND_BY_ID: Record<string, FixKind> = {
  'reserved-word': 'reservedWord',
  'undefined-name': 'undefinedName',
  'undefined-value': 'undefinedValue',
  'unused-name': 'unusedName',
  'unused-value': 'unusedValue',
  'empty-attribute-map': 'removeMap',
  'map-without-expression': 'removeMap',
  'redundant-parentheses': 'redundantParens',
  'duplicate-clause': 'mergeClauses',
};

const OPERATION: Partial<Record<OperationKind, RequestOperation>> = {
  Put: 'PutItem',
  Update: 'UpdateItem',
  Delete: 'DeleteItem',
  ConditionCheck: 'ConditionCheck',
  Get: 'GetItem',
  Query: 'Query',
  Scan: 'Scan',
  BatchGet: 'BatchGetItem',
};

const EXPRESSION_KEYS = Object.keys(EXPRESSION_FIELDS) as ExpressionField[];

/** The validator's input for one operation, or undefined when it has nothing to validate. */
export function buildRequest(op: Operation): ExpressionRequest | undefined {
  const operation = op.kind === 'Get' && op.transactional ? 'TransactGetItems' : OPERATION[op.kind];
  if (!operation) return undefined;
  const p = op.params;
  const expressions: ExpressionRequest['expressions'] = {};
  const unknownExpressions: ExpressionField[] = [];
  for (const field of EXPRESSION_KEYS) {
    const node = prop(p, field);
    if (!node) {
      // A spread (`...base`, `**kw`) may carry any expression.
      if (!p.complete) unknownExpressions.push(field);
      continue;
    }
    if (node.kind === 'string') expressions[field] = node.value;
    else unknownExpressions.push(field);
  }
  const namesNode = propEntry(p, 'ExpressionAttributeNames');
  const valuesNode = propEntry(p, 'ExpressionAttributeValues');
  if (!Object.keys(expressions).length && !namesNode && !valuesNode) return undefined;
  const request: ExpressionRequest = { operation, expressions };
  if (unknownExpressions.length) request.unknownExpressions = unknownExpressions;
  if (namesNode) {
    const map: Record<string, string> = {};
    let complete = namesNode.value.kind === 'object' && namesNode.value.complete;
    for (const e of namesNode.value.kind === 'object' ? namesNode.value.properties : []) {
      if (e.value.kind === 'string') map[e.key] = e.value.value;
      else complete = false;
    }
    request.names = { map, complete };
  }
  if (valuesNode) {
    const map: Record<string, ValueInfo> = {};
    const v = valuesNode.value;
    for (const e of v.kind === 'object' ? v.properties : []) {
      const type: AttrType = attrType(e.value, op.site.style);
      const text = scalarText(e.value, op.site.style);
      map[e.key] = text === undefined ? { type } : { type, text };
    }
    request.values = { map, complete: v.kind === 'object' && v.complete };
  }
  const key = prop(p, 'Key');
  if (key?.kind === 'object' && key.complete && key.properties.length) {
    const all = key.properties.map((e) => e.key);
    request.keyAttributes = all.length === 1 ? { partition: all[0], all } : { all };
  }
  return request;
}

interface OperationResult {
  op: Operation;
  findings: ExpressionFinding[];
}

function validateOperation(op: Operation): OperationResult | undefined {
  const request = buildRequest(op);
  return request && { op, findings: validateRequest(request) };
}

type MapLocation = Extract<FindingLocation, { key?: string }>;
const isMapLocation = (loc: FindingLocation): loc is MapLocation => loc.field === 'ExpressionAttributeNames' || loc.field === 'ExpressionAttributeValues';

/** Validation results per document, computed by the first expression rule to run and shared by the rest. */
const cache = new WeakMap<RequestSite[], { text: string; results: OperationResult[] }>();

export function validateSites(ctx: Pick<RuleContext, 'text' | 'sites'>): OperationResult[] {
  const hit = cache.get(ctx.sites);
  if (hit && hit.text === ctx.text) return hit.results;
  const results: OperationResult[] = [];
  for (const site of ctx.sites) {
    for (const op of operationsOf(site)) {
      const r = validateOperation(op);
      if (r?.findings.length) results.push(r);
    }
  }
  cache.set(ctx.sites, { text: ctx.text, results });
  return results;
}

/** The document range a finding points at. */
export function findingRange(op: Operation, f: ExpressionFinding): Range {
  const loc = f.location;
  if (isMapLocation(loc)) {
    const map = propEntry(op.params, loc.field);
    if (!map) return op.site.nameRange;
    if (loc.key === undefined) return map.keyRange;
    return propEntry(map.value, loc.key)?.keyRange ?? map.keyRange;
  }
  const entry = propEntry(op.params, loc.field);
  if (entry?.value.kind !== 'string') return entry?.keyRange ?? op.site.nameRange;
  return stringRange(entry.value, loc.start, loc.end);
}

/** The text a finding points at inside its expression (`status`, `#n`, `:v`), or the map key it names. */
function subject(op: Operation, f: ExpressionFinding): string | undefined {
  const loc = f.location;
  if (isMapLocation(loc)) return loc.key;
  const node = prop(op.params, loc.field) as StringNode | undefined;
  return node?.kind === 'string' ? node.value.slice(loc.start, loc.end) : undefined;
}

function dataString(f: ExpressionFinding, ...keys: string[]): string | undefined {
  for (const k of keys) {
    const v = f.data?.[k];
    if (typeof v === 'string') return v;
  }
  return undefined;
}

/** The reserved words of one operation's findings, in order of appearance, each once. */
function reservedWords(r: OperationResult): string[] {
  const words = r.findings.filter((f) => FIX_KIND_BY_ID[f.id] === 'reservedWord').map((f) => dataString(f, 'word', 'name') ?? subject(r.op, f));
  return [...new Set(words.filter((w): w is string => !!w))];
}

function fixesFor(text: string, r: OperationResult, f: ExpressionFinding): Fix[] {
  const kind = FIX_KIND_BY_ID[f.id];
  const op = r.op;
  const loc = f.location;
  const what = dataString(f, 'placeholder', 'name', 'key', 'word') ?? subject(op, f);
  const out: (Fix | undefined)[] = [];
  switch (kind) {
    case 'reservedWord': {
      if (!what) break;
      out.push(reservedWordsFix(text, op, [what]));
      const all = reservedWords(r);
      if (all.length > 1) out.push(reservedWordsFix(text, op, all));
      break;
    }
    case 'undefinedName':
      if (what) out.push(defineNameFix(text, op, what));
      break;
    case 'undefinedValue':
      if (what) out.push(defineValueFix(text, op, what));
      break;
    case 'unusedName':
    case 'unusedValue':
      if (what) out.push(removeUnusedFix(text, op, kind === 'unusedName' ? 'ExpressionAttributeNames' : 'ExpressionAttributeValues', what));
      break;
    case 'removeMap':
      if (isMapLocation(loc)) out.push(removeMapFix(text, op, loc.field));
      break;
    case 'redundantParens':
      if (!isMapLocation(loc)) out.push(redundantParensFix(text, op, loc.field, loc.start, loc.end));
      break;
    case 'mergeClauses':
      out.push(mergeClausesFix(text, op));
      break;
  }
  const fixes = out.filter((x): x is Fix => x !== undefined);
  if (fixes[0]) fixes[0].preferred = true;
  return fixes;
}

function ruleFor(meta: (typeof EXPRESSION_FINDINGS)[number]): Rule {
  const kind = FIX_KIND_BY_ID[meta.id];
  return {
    id: meta.id,
    meta: {
      description: meta.description,
      docs: `${DOCS_BASE}/${meta.id}.md`,
      defaultSeverity: meta.defaultSeverity,
      fixable: kind !== undefined,
      category: 'expression',
    },
    check(ctx) {
      const out: (Omit<Finding, 'severity'> & { severity: Finding['severity'] })[] = [];
      for (const r of validateSites(ctx)) {
        for (const f of r.findings) {
          if (f.id !== meta.id) continue;
          const finding: Omit<Finding, 'severity'> & { severity: Finding['severity'] } = {
            ruleId: f.id,
            severity: f.severity,
            message: f.message,
            range: findingRange(r.op, f),
          };
          const fixes = fixesFor(ctx.text, r, f);
          if (fixes.length) finding.fixes = fixes;
          if (kind === 'unusedName' || kind === 'unusedValue') finding.unnecessary = true;
          out.push(finding);
        }
      }
      return out;
    },
  };
}

export const expressionRules: Rule[] = EXPRESSION_FINDINGS.map(ruleFor);
