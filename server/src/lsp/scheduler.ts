/**
 * Coalesced linting without a fixed delay: a document asks to be linted, and the lint runs as soon as the server is
 * free: after two consecutive turns of the event loop in which no new lint request arrived. vscode-jsonrpc dispatches
 * one queued message per setImmediate turn, and our turn may run just before its turn in the same check phase, so one
 * quiet turn is not proof that its queue is empty; two are. A burst of didChange messages thus keeps deferring the lint
 * by a turn each (microseconds) and costs one lint of the latest version. Documents are linted one per turn so
 * requests (hover, completion) interleave.
 */
export class LintScheduler {
  private readonly pending = new Set<string>();
  private scheduled = false;
  private running = false;
  /** Bumped by every request; a turn that sees it unchanged is a quiet turn. */
  private generation = 0;
  private seen = -1;
  private quietTurns = 0;

  constructor(
    private readonly lint: (uri: string) => Promise<void>,
    private readonly onError: (uri: string, e: unknown) => void,
  ) {}

  request(uri: string): void {
    this.pending.add(uri);
    this.generation++;
    this.quietTurns = 0;
    this.kick();
  }

  /** A lint is running or waiting for its turn. */
  get busy(): boolean {
    return this.running || this.pending.size > 0;
  }

  cancel(uri: string): void {
    this.pending.delete(uri);
  }

  private kick(): void {
    if (this.scheduled || this.running || this.pending.size === 0) return;
    this.scheduled = true;
    this.seen = this.generation;
    setImmediate(() => void this.turn());
  }

  private async turn(): Promise<void> {
    this.scheduled = false;
    if (this.seen !== this.generation || ++this.quietTurns < 2) return this.kick(); // not settled: one more turn
    this.quietTurns = 0;
    const uri = this.pending.values().next().value;
    if (uri === undefined) return;
    this.pending.delete(uri);
    this.running = true;
    try {
      await this.lint(uri);
    } catch (e) {
      this.onError(uri, e);
    } finally {
      this.running = false;
      this.kick();
    }
  }
}
