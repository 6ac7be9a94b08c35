/**
 * A `dynalint lint` worker thread: lints the files the main thread sends, one message per file, answering in the same
 * order. The bundle (dist/cli.js) starts itself as the worker (cli.ts calls `serveLintJobs` when `workerData` says so);
 * from sources (tests), this file is the worker's entry.
 */
import { type MessagePort, parentPort, workerData } from 'node:worker_threads';
import { type LintJob, lintFile } from './lint-file';
import { type FileTables, TableIndex } from '../tables';

/** `workerData` of a lint worker. */
export const LINT_WORKER = 'dynalint-lint-worker';

export interface JobMessage {
  id: number;
  job: LintJob;
  /** The table definitions of the tree, sent with a worker's first job (plain data; the index is rebuilt once). */
  tables?: FileTables[];
}

export function serveLintJobs(port: MessagePort): void {
  // Files are linted one at a time: a message waits until the previous file is done (order kept, memory bounded).
  let queue = Promise.resolve();
  let tables: TableIndex | undefined;
  port.on('message', (m: JobMessage) => {
    if (m.tables) tables = TableIndex.from(m.tables);
    queue = queue.then(async () => {
      try {
        port.postMessage({ id: m.id, outcome: await lintFile(m.job, tables) });
      } catch (e) {
        port.postMessage({ id: m.id, failure: (e as Error)?.stack ?? String(e) });
      }
    });
  });
}

if (parentPort && workerData === LINT_WORKER && /\.ts$/.test(__filename)) serveLintJobs(parentPort);
