/**
 * How many uploads the ingress takes at once: in all (`INGRESS_MAX_CONCURRENCY`), and per user
 * (`INGRESS_USER_CONCURRENCY`). Each upload holds up to two parts in memory
 * (shared/storage/stream-put.ts), so the total bounds the process's memory; the per-user limit
 * keeps one phone's backup from taking every slot. One process, so counters in memory suffice.
 */
export class UploadGate {
  private total = 0;
  private readonly perUser = new Map<string, number>();

  private readonly maxTotal: number;
  private readonly maxPerUser: number;

  constructor(maxTotal: number, maxPerUser: number) {
    this.maxTotal = maxTotal;
    this.maxPerUser = maxPerUser;
  }

  /** A slot of the total, or undefined when all are taken; the returned function gives it back (once). */
  enter(): (() => void) | undefined {
    if (this.total >= this.maxTotal) return undefined;
    this.total++;
    return once(() => {
      this.total--;
    });
  }

  /** A slot of the user's own, or undefined when they have as many uploads running as they may. */
  enterUser(userId: string): (() => void) | undefined {
    const running = this.perUser.get(userId) ?? 0;
    if (running >= this.maxPerUser) return undefined;
    this.perUser.set(userId, running + 1);
    return once(() => {
      const left = (this.perUser.get(userId) ?? 1) - 1;
      if (left > 0) this.perUser.set(userId, left);
      else this.perUser.delete(userId);
    });
  }

  get running(): number {
    return this.total;
  }
}

const once = (fn: () => void): (() => void) => {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    fn();
  };
};
