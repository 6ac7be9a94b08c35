/**
 * A child process's stderr as far as our code wrote it: without the lines Node itself adds (warnings and deprecations
 * that a NODE_OPTIONS flag, an experimental loader or an inspector in the developer's environment produce). Tests that
 * compare a process's stderr exactly compare this.
 */
const FOREIGN = [
  /^\(node:\d+\) /, // (node:1234) Warning / DeprecationWarning / ExperimentalWarning: ...
  /^\(Use `node --trace-/, // the hint printed after such a warning
  /^Debugger (attached|listening on)/,
  /^Waiting for the debugger to disconnect/,
  /^For help, see: https:\/\/nodejs\.org\/en\/docs\/inspector/,
];

export function ownStderr(text: string): string {
  return text
    .split(/(?<=\n)/)
    .filter((line) => !FOREIGN.some((re) => re.test(line)))
    .join('');
}
