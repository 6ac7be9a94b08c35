// The one place that finds the Chromium the browser tests drive (the VS Code tier through code-server, the reconcile
// results page): $CHROMIUM_PATH, else the first of chromium, chromium-browser, google-chrome on the PATH.
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

const NAMES = ['chromium', 'chromium-browser', 'google-chrome'];

function executable(p) {
  try {
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first executable called `name` on the PATH, or undefined. */
export function onPath(name) {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const p = join(dir, name);
    if (executable(p)) return p;
  }
  return undefined;
}

/** Chromium's path, or undefined when there is none. */
export function findChromium() {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) return executable(fromEnv) ? fromEnv : undefined;
  for (const name of NAMES) {
    const p = onPath(name);
    if (p) return p;
  }
  return undefined;
}

/** Chromium's path; throws one line saying what to do when there is none. */
export function chromiumPath() {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv && !executable(fromEnv)) throw new Error(`CHROMIUM_PATH=${fromEnv} is not an executable file: fix it or unset it`);
  const p = findChromium();
  if (!p) {
    throw new Error(`Chromium not found (CHROMIUM_PATH unset; no ${NAMES.join(', ')} on PATH): run npm test once (it installs it) or apt-get install chromium`);
  }
  return p;
}
