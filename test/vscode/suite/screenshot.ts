/**
 * Screenshots for the README, taken by the harness (scripts/run-vscode-tests.mjs, which holds the Playwright page of
 * the workbench) at the moment a test asks for one. The extension host cannot see the browser, so the two talk through
 * files in DYNALINT_SCREENSHOT_REQUESTS (set only by a harness that can take screenshots):
 *   the suite writes `<name>.request.json` (a ShotRequest) once the editor is in the state to show,
 *   the harness waits (Playwright locators, with a deadline) until every `waitFor` element is visible in the DOM, takes
 *   `test-results/screenshots/<name>.png`, presses `dismiss` if asked, and writes `<name>.done.json` ({ok, error?}).
 * A screenshot that cannot be taken is reported (by the harness, and here on the extension host's console) and never
 * fails the test: the tests assert behaviour through the API; the picture only shows it.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Visible {
  /** Playwright selector of an element that must be visible. */
  selector: string;
  /** Text the element must contain. */
  hasText?: string;
  /** Iframes to descend through first (a webview: its frame, then the frame holding the page). */
  frames?: string[];
}

export interface ShotRequest {
  /** The PNG's name (without extension), under test-results/screenshots/. */
  name: string;
  /** Every element that must be visible before the shot (in the workbench page unless `frames`). */
  waitFor: Visible[];
  /** Selector of the region to keep (grown to hold the waited-for workbench elements); the whole page when absent. */
  clip?: string;
  /**
   * Crop the bottom of `clip` just below the waited-for elements and every element matching these selectors (e.g. the
   * editor's text lines), instead of keeping the empty space under them.
   */
  fit?: string[];
  /** A key the harness presses after the shot (Escape: close the hover or menu it shows). */
  dismiss?: string;
}

export interface ShotResult {
  taken: boolean;
  why?: string;
}

const requests = process.env.DYNALINT_SCREENSHOT_REQUESTS;

/** Asks the harness for a screenshot and waits (deadline) for its answer. Never throws. */
export async function screenshot(req: ShotRequest, ms = 30_000): Promise<ShotResult> {
  if (!requests) return { taken: false, why: 'no harness takes screenshots in this run' };
  const done = join(requests, `${req.name}.done.json`);
  try {
    const file = join(requests, `${req.name}.request.json`);
    // Written whole, then renamed: the harness never reads half a request.
    writeFileSync(`${file}.part`, JSON.stringify(req));
    renameSync(`${file}.part`, file);
    const end = Date.now() + ms;
    while (!existsSync(done)) {
      if (Date.now() > end) throw new Error(`the harness did not answer within ${ms / 1000} s`);
      await new Promise<void>((resolve) => setTimeout(resolve, 100)); // poll the answer file, with the deadline above
    }
    const answer = JSON.parse(readFileSync(done, 'utf8')) as { ok: boolean; error?: string };
    if (!answer.ok) throw new Error(answer.error ?? 'failed');
    return { taken: true };
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    console.log(`  screenshot ${req.name} NOT taken: ${why}`);
    return { taken: false, why };
  }
}
