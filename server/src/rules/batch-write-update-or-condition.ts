import { RequestSite, prop } from '../extract/model';
import { DOCS_BASE, Finding, Rule } from './types';

const id = 'batch-write-update-or-condition';
const EXPRESSION_FIELDS = new Set(['UpdateExpression', 'ConditionExpression', 'Expected', 'AttributeUpdates', 'ConditionalOperator', 'ReturnValuesOnConditionCheckFailure']);

function checkSite(site: RequestSite): Omit<Finding, 'severity'>[] {
  if (site.api !== 'BatchWriteItem') return [];
  const out: Omit<Finding, 'severity'>[] = [];
  const bad = (range: Finding['range'], message: string) => out.push({ ruleId: id, message, range });
  for (const p of site.params.properties) {
    if (EXPRESSION_FIELDS.has(p.key)) bad(p.keyRange, `BatchWriteItem takes no ${p.key}: it only puts and deletes whole items, unconditionally. Use UpdateItem, or TransactWriteItems for several items.`);
  }
  const tables = prop(site.params, 'RequestItems');
  if (tables?.kind !== 'object') return out;
  for (const t of tables.properties) {
    if (t.value.kind !== 'array') continue;
    for (const entry of t.value.items) {
      if (entry.kind !== 'object') continue;
      for (const e of entry.properties) {
        if (e.key !== 'PutRequest' && e.key !== 'DeleteRequest') {
          bad(e.keyRange, `BatchWriteItem accepts only PutRequest and DeleteRequest, not ${e.key}: counters and partial updates go through UpdateItem (or TransactWriteItems, up to 100 actions).`);
          continue;
        }
        if (e.value.kind !== 'object') continue;
        for (const f of e.value.properties) {
          if (EXPRESSION_FIELDS.has(f.key) || f.key.startsWith('ExpressionAttribute'))
            bad(f.keyRange, `A ${e.key} in BatchWriteItem cannot carry ${f.key}: batch writes are unconditional. Use ${e.key === 'PutRequest' ? 'PutItem' : 'DeleteItem'} or TransactWriteItems to write with a condition.`);
        }
      }
    }
  }
  return out;
}

export const batchWriteUpdateOrCondition: Rule = {
  id,
  meta: {
    description: 'BatchWriteItem carrying an update or a condition, which DynamoDB rejects.',
    docs: `${DOCS_BASE}/${id}.md`,
    defaultSeverity: 'error',
    fixable: false,
    category: 'correctness',
  },
  check: ({ sites }) => sites.flatMap(checkSite),
  site: (_ctx, s) => checkSite(s),
};
