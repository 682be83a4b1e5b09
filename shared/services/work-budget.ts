/**
 * Runs one batch of a run's work and hands back its result: the nightly function's tells the apps
 * of the events the batch raised as soon as it is done (docs/data-model.md, "Nightly clean-up").
 */
export type BatchRunner = <T>(work: () => Promise<T>) => Promise<T>;

const inPlace: BatchRunner = (work) => work();

/**
 * How much one run of a long clean-up may still do (the nightly tasks': docs/data-model.md,
 * "Nightly clean-up"): a number of deletions and a time to stop by. A Lambda invocation lasts 15
 * minutes at most, so a large trash or library is deleted over several runs, each stopping when
 * its budget is spent; the next one finds what is left and goes on. The run's work is done in
 * batches (a page of deletions, a user's shares), each told to the apps once it is done, not at
 * the run's end.
 */
export class WorkBudget {
  private left: number;
  private readonly deadline: number;
  private readonly runBatch: BatchRunner;

  constructor(deletions: number, deadline: number, runBatch: BatchRunner = inPlace) {
    this.left = deletions;
    this.deadline = deadline;
    this.runBatch = runBatch;
  }

  /** Nothing more may be started. */
  get spent(): boolean {
    return this.left <= 0 || this.timeUp;
  }

  /** Its time is up (whatever deletions are left). */
  get timeUp(): boolean {
    return Date.now() >= this.deadline;
  }

  /** How many deletions may still be started. */
  get remaining(): number {
    return Math.max(0, this.left);
  }

  take(count = 1): void {
    this.left -= count;
  }

  /** One batch of the run's work, through the run's batch runner. */
  batch<T>(work: () => Promise<T>): Promise<T> {
    return this.runBatch(work);
  }
}
