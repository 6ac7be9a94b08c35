import { Case, ruleCases } from './check';
import { ALL_DIALECTS, render } from './render';

const q = { TableName: 'Social', KeyConditionExpression: 'PK = :pk AND begins_with(SK, :like)', ExpressionAttributeValues: { ':pk': 'POST#a91f', ':like': 'LIKE#' } };
const str = (d: string, s: string) => (d === 'json' ? `"${s}"` : `'${s}'`);

ruleCases(
  'count-children-on-read',
  ALL_DIALECTS.flatMap((d): Case[] => [
    { name: 'Query with Select COUNT', dialect: d, code: render(d, 'Query', { ...q, Select: 'COUNT' }), expect: [{ text: str(d, 'COUNT'), message: 'reference count on the parent' }] },
    { name: 'Scan with Select COUNT', dialect: d, code: render(d, 'Scan', { TableName: 'Social', FilterExpression: 'likedAt > :t', ExpressionAttributeValues: { ':t': 1750636800 }, Select: 'COUNT' }), expect: [{ text: str(d, 'COUNT') }] },
    { name: 'Query for the items', dialect: d, code: render(d, 'Query', q) },
    { name: 'Query with another Select', dialect: d, code: render(d, 'Query', { ...q, Select: 'ALL_ATTRIBUTES' }) },
  ]),
);
