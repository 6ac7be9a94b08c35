/**
 * Differential suite: every case in cases.ts goes to DynamoDB Local (one instance, one `Diff` table) and to our
 * validator. Two assertions per case: Local still answers as pinned (so a Local upgrade is noticed), and the
 * validator reports an Error exactly when DynamoDB rejects the request (the documented verdict where Local departs).
 * Every disagreement of the validator is also written to test-results/differential-mismatches.json (ignored by git;
 * removed when none).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LocalDynamo, startDynamoDBLocal } from '../../scripts/dynamodb-local';
import { validateRequest } from '../../server/src/expression';
import type { ExpressionFinding } from '../../server/src/expression/api';
import { assertUniqueNames, CASES, DiffCase } from './cases';
import { createDiffTable, expectedRejection, Observed, pool, runOnLocal, toExpressionRequest, verdictMismatch } from './harness';

const MISMATCHES = join(__dirname, '..', '..', 'test-results', 'differential-mismatches.json');
const IN_FLIGHT = 8;

interface Judgement {
  findings: ExpressionFinding[];
  crash?: string;
}

function judge(c: DiffCase, index: number): Judgement {
  try {
    return { findings: validateRequest(toExpressionRequest(c.request, index)) };
  } catch (e) {
    return { findings: [], crash: e instanceof Error ? (e.stack ?? e.message) : String(e) };
  }
}

const errorsOf = (j: Judgement) => j.findings.filter((f) => f.severity === 'error');

function disagrees(c: DiffCase, j: Judgement): boolean {
  return j.crash !== undefined || errorsOf(j).length > 0 !== expectedRejection(c);
}

function describeFindings(j: Judgement): string {
  if (j.crash) return `validator threw: ${j.crash}`;
  if (!j.findings.length) return 'no findings';
  return j.findings.map((f) => `${f.severity} ${f.id}: ${f.message}`).join('\n  ');
}

function writeMismatches(seen: Observed[], judged: Judgement[]): void {
  const rows = CASES.flatMap((c, i) =>
    disagrees(c, judged[i])
      ? [
          {
            name: c.name,
            request: c.request,
            local: { ...seen[i], pinned: c.local },
            ...(c.documentedDeparture ? { documentedDeparture: true, note: c.note } : {}),
            expected: expectedRejection(c) ? 'error' : 'no error',
            findings: judged[i].findings,
            ...(judged[i].crash ? { crash: judged[i].crash } : {}),
          },
        ]
      : [],
  );
  if (rows.length) {
    mkdirSync(join(MISMATCHES, '..'), { recursive: true });
    writeFileSync(MISMATCHES, JSON.stringify(rows, null, 2) + '\n');
  }
  else if (existsSync(MISMATCHES)) rmSync(MISMATCHES);
}

describe('differential: DynamoDB Local and the validator agree', function () {
  this.timeout(180_000);
  let local: LocalDynamo | undefined;
  let seen: Observed[] = [];
  let judged: Judgement[] = [];

  before(async () => {
    assertUniqueNames(CASES);
    local = await startDynamoDBLocal();
    await createDiffTable(local.client);
    const client = local.client;
    seen = await pool(CASES, IN_FLIGHT, (c, i) => runOnLocal(client, c, i));
    judged = CASES.map((c, i) => judge(c, i));
    writeMismatches(seen, judged);
  });

  after(async () => {
    await local?.stop();
  });

  it('covers at least 400 requests, both verdicts, every operation', () => {
    assert.ok(CASES.length >= 400, `${CASES.length} cases`);
    const rejected = CASES.filter((c) => c.local.rejects).length;
    assert.ok(rejected >= 100 && CASES.length - rejected >= 100, `${rejected} rejected of ${CASES.length}`);
    assert.deepEqual([...new Set(CASES.map((c) => c.request.op))].sort(), ['DeleteItem', 'GetItem', 'PutItem', 'Query', 'Scan', 'UpdateItem']);
  });

  describe('DynamoDB Local answers as pinned', () => {
    CASES.forEach((c, i) => {
      it(c.name, () => {
        const why = verdictMismatch(c.local, seen[i]);
        assert.equal(why, undefined, `${c.name}: ${why}`);
      });
    });
  });

  describe('the validator reports an Error exactly when DynamoDB rejects (the documentation where Local departs)', () => {
    CASES.forEach((c, i) => {
      it(c.name, () => {
        const want = expectedRejection(c);
        const why = c.documentedDeparture ? ` (documented behaviour; ${c.note})` : '';
        assert.ok(
          !disagrees(c, judged[i]),
          `expected ${want ? 'an Error' : 'no Error'}${why}; Local: ${seen[i].outcome}${seen[i].message ? ` "${seen[i].message}"` : ''}\n  ${describeFindings(judged[i])}`,
        );
      });
    });
  });
});
