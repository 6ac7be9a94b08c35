// npm's `prepare`: build dist/ when it is missing, i.e. in a fresh checkout installed as a package (a git dependency,
// the pre-commit hook, `npm pack` of a clone). A working copy with a build keeps it (`npm run build` rebuilds).
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

if (!existsSync('dist/cli.js')) {
  const r = spawnSync(process.execPath, ['esbuild.mjs'], { stdio: 'inherit' });
  process.exit(r.status ?? 1);
}
