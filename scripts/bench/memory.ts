/**
 * Memory retained after a close storm, as VS Code makes one: 400 TypeScript documents of at least 69 KB opened, their
 * diagnostics pulled and each closed without waiting for the answer. The server's RSS and heap after a full GC are
 * compared with the same figures after one document was opened, linted and closed (the floor: parsers loaded, nothing
 * open). Nothing is retained for a closed document, so the ratio stays near 1.
 */
import type { ServerStats } from '../../server/src/protocol/lsp';
import { StatsRequest } from '../../server/src/protocol/lsp';
import { LspClient } from '../../test/support/lsp-client';
import type { BenchRow } from '../bench';
import { tsFile } from './extract';

const DOCS = 400;

export async function run(): Promise<BenchRow[]> {
  let text = tsFile(1500);
  while (text.length < 69_000) text += '\n// padding to the size measured in the report';
  const client = await LspClient.start({ pull: true });
  try {
    const stats = () => client.connection.sendRequest<ServerStats>(StatsRequest, { collectGarbage: true });
    await client.open('file:///bench/warm.ts', 'typescript', text);
    await client.pullDiagnostics('file:///bench/warm.ts');
    await client.close('file:///bench/warm.ts');
    const before = await stats();
    const pending: Promise<unknown>[] = [];
    for (let i = 0; i < DOCS; i++) {
      const uri = `file:///bench/storm-${i}.ts`;
      await client.open(uri, 'typescript', `// ${i}\n${text}`);
      pending.push(client.pullDiagnostics(uri));
      await client.close(uri);
    }
    await Promise.all(pending);
    const after = await stats();
    const mb = (b: number) => `${(b / 1048576).toFixed(0)} MB`;
    return [
      {
        area: 'memory',
        name: `RSS after ${DOCS} docs of ${Math.round(text.length / 1000)} KB opened, pulled, closed`,
        ours: mb(after.rssBytes),
        baseline: `${mb(before.rssBytes)} (one doc)`,
        ratio: after.rssBytes / before.rssBytes,
        note: `held after: ${after.analyses} analyses, ${after.extractors} extractors, ${after.settings} settings`,
      },
      { area: 'memory', name: 'heap used after the storm (full GC)', ours: mb(after.heapUsedBytes), baseline: mb(before.heapUsedBytes), ratio: after.heapUsedBytes / before.heapUsedBytes },
    ];
  } finally {
    await client.stop();
  }
}
