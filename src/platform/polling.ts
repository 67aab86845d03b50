// A background loop over a batch step, for the workers that poll the database for work (notifications to deliver,
// transfers to check, avisos to write): it runs the step, runs it again at once when it handled a full batch (more
// is waiting), and otherwise waits `pollMs`. A step that throws (the database went away for a moment) is tried again
// at the next poll, and told to `onError` (the owner logs it: nothing fails in silence). `stop()` waits for the step
// in flight.
export class PollingLoop {
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<unknown> | undefined;
  #stopped = false;

  constructor(
    /** handles one batch; resolves to how many items it handled */
    private readonly step: () => Promise<number>,
    private readonly batch: number,
    private readonly pollMs: number,
    /** told of each step that threw: the owner logs and counts it */
    private readonly onError: (error: unknown) => void,
  ) {}

  start(): void {
    const loop = async () => {
      if (this.#stopped) return;
      let handled = 0;
      try {
        const running = this.step();
        this.#running = running;
        handled = await running;
      } catch (error) {
        // Tried again at the next poll.
        this.onError(error);
      }
      if (!this.#stopped) this.#timer = setTimeout(loop, handled >= this.batch ? 0 : this.pollMs);
    };
    this.#timer = setTimeout(loop, 0);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#running?.catch(() => {});
  }
}
