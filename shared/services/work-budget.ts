/**
 * How much one run of a long clean-up may still do (the nightly tasks': docs/data-model.md,
 * "Nightly clean-up"): a number of deletions and a time to stop by. A Lambda invocation lasts 15
 * minutes at most, so a large trash or library is deleted over several runs, each stopping when
 * its budget is spent; the next one finds what is left and goes on.
 */
export class WorkBudget {
  private left: number;
  private readonly deadline: number;

  constructor(deletions: number, deadline: number) {
    this.left = deletions;
    this.deadline = deadline;
  }

  /** Nothing more may be started. */
  get spent(): boolean {
    return this.left <= 0 || Date.now() >= this.deadline;
  }

  /** How many deletions may still be started. */
  get remaining(): number {
    return Math.max(0, this.left);
  }

  take(count = 1): void {
    this.left -= count;
  }
}
