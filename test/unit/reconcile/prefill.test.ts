/** The reconcile command's prompts and prefilled values (client/src/reconcile/prefill.ts, vscode-free). */
import assert from 'node:assert/strict';
import { prefill } from '../../../client/src/reconcile/prefill';

describe('reconcile command prefill', () => {
  it('names the definition\'s key attributes and prefers the table from the code', () => {
    const p = prefill({ table: 'social', partitionKey: 'postId', sortKey: 'itemType', definedAt: 'SocialTable (template.yaml:2)', counter: 'likeTally', childPrefix: 'LIKE#' });
    assert.equal(p.table, 'social');
    assert.equal(p.tableDescription, 'from the code, defined at SocialTable (template.yaml:2)');
    assert.equal(p.parentSkPrompt, 'Value of itemType (sort key) of the parent item holding likeTally');
    assert.equal(p.parentSk, 'META');
    assert.equal(p.childPrefixPrompt, 'Prefix of itemType (sort key) of the children');
    assert.equal(p.childrenDetail, 'e.g. likeTally on itemType = META vs the number of itemType = LIKE#… items');
    assert.equal(p.partitionKeysPrompt, 'Values of postId (partition key), separated by commas');
    assert.equal(p.partitionPrefixPrompt, 'Prefix of postId (partition key)');
  });

  it('without a definition: generic words, SK in the examples, no preferred table', () => {
    const p = prefill({});
    assert.equal(p.table, undefined);
    assert.equal(p.tableDescription, 'from the code');
    assert.equal(p.parentSkPrompt, 'Value of the sort key of the parent item');
    assert.equal(p.childPrefixPrompt, 'Prefix of the sort key of the children');
    assert.equal(p.shardsDetail, 'e.g. play_count on SK = STATS#TOTAL vs the sum over SK = STATS#TOTAL#0..N');
    assert.equal(p.partitionKeysPrompt, 'Values of the partition key, separated by commas');
  });

  it('keeps the lens\'s literal parent sort key', () => {
    assert.equal(prefill({ parentSk: 'PROFILE', sortKey: 'sk' }).parentSk, 'PROFILE');
  });
});
