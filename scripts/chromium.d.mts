/** The first executable called `name` on the PATH, or undefined. */
export function onPath(name: string): string | undefined;
/** Chromium's path ($CHROMIUM_PATH, else chromium, chromium-browser, google-chrome on the PATH), or undefined. */
export function findChromium(): string | undefined;
/** Chromium's path; throws one line saying what to do when there is none. */
export function chromiumPath(): string;
