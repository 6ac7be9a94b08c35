/**
 * `dynalint <command> ...`: a small dispatcher. Each command lives in `cli/<command>.ts` as a `Command`
 * (argv, io) -> exit code, so tests run them in-process and the bundle (dist/cli.js) runs them from a shell.
 */
import type { CliIO, Command } from './cli/command';
import { EXIT } from './cli/command';
import { lintCommand } from './cli/lint';
import { runReconcileCli } from './cli/reconcile';
import { demoCommand } from './cli/demo';
import { LINT_WORKER, serveLintJobs } from './cli/worker';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { join } from 'node:path';
import { registerCodeCache, writeCodeCaches } from './io/code-cache';

const COMMANDS: Record<string, { run: Command; summary: string }> = {
  lint: { run: lintCommand, summary: 'lint DynamoDB requests in source files (stylish, json or sarif)' },
  reconcile: { run: runReconcileCli, summary: 'find (and repair) reference counts that drifted from their children' },
  demo: { run: demoCommand, summary: 'start DynamoDB Local, seed a Social table, lint examples/ and reconcile it' },
};

export const USAGE = `Usage: dynalint <command> [options]

Commands:
${Object.entries(COMMANDS)
  .map(([name, c]) => `  ${name.padEnd(10)} ${c.summary}`)
  .join('\n')}

Run \`dynalint <command> --help\` for a command's options.
`;

export async function main(argv: string[], io: CliIO): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io[name === undefined ? 'stderr' : 'stdout'](USAGE);
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  if (name === '--version') {
    io.stdout('0.1.0\n');
    return EXIT.ok;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.stderr(`dynalint: unknown command "${name}"\n\n${USAGE}`);
    return EXIT.usage;
  }
  return command.run(rest, io);
}

/** An error no command turned into a message: its first line for the user, the whole stack when debugging. */
export function unexpectedError(e: unknown, debug: boolean): string {
  if (debug && e instanceof Error && e.stack) return e.stack;
  const text = e instanceof Error ? e.message || e.name : String(e);
  return (text.split('\n')[0] || 'unknown error') + (debug ? '' : ' (set DYNALINT_DEBUG=1 for details)');
}

/**
 * A writer for stdout/stderr that stops quietly once the reader went away (`dynalint lint . | head -1`): EPIPE is
 * not an error of ours, so no stack trace; the command still ends with its own exit code.
 */
export function quietOnClosedPipe(stream: NodeJS.WritableStream): (text: string) => void {
  let closed = false;
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE' && e.code !== 'ERR_STREAM_DESTROYED') throw e;
    closed = true;
  });
  return (text) => {
    if (!closed) stream.write(text);
  };
}

if (!isMainThread && workerData === LINT_WORKER && parentPort) {
  // dist/cli.js started as a `dynalint lint --jobs N` worker thread.
  registerCodeCache(join(__dirname, 'typescript.js'));
  serveLintJobs(parentPort);
} else if (require.main === module) {
  // The TypeScript compiler next to this bundle loads through the V8 code cache the language server uses too
  // (io/code-cache.ts): ~120 ms less per run that lints TS/JS; written at the end of the first such run.
  registerCodeCache(join(__dirname, 'typescript.js'));
  // The AWS SDK warns on stderr, in nine lines, about Node versions it will drop in future releases: nothing a
  // `dynalint reconcile` user can act on, and it buries the one-line result.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const io: CliIO = { cwd: process.cwd(), stdout: quietOnClosedPipe(process.stdout), stderr: quietOnClosedPipe(process.stderr) };
  main(process.argv.slice(2), io).then(
    (code) => {
      writeCodeCaches();
      process.exitCode = code;
    },
    (e: unknown) => {
      process.stderr.write(`dynalint: ${unexpectedError(e, !!process.env.DYNALINT_DEBUG)}\n`);
      process.exitCode = EXIT.usage;
    },
  );
}
