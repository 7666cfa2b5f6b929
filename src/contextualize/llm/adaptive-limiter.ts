/** Successful calls in a row before a lowered limit goes up by one. */
const RECOVERY_STREAK = 10;

/**
 * Bounds concurrent model calls. A rate-limit answer halves the limit; it then
 * climbs back one step per streak of successes, up to the configured maximum.
 */
export class AdaptiveLimiter {
  private limit: number;
  private active = 0;
  private streak = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly max: number) {
    this.limit = max;
  }

  get currentLimit(): number {
    return this.limit;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    while (this.active >= this.limit)
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    try {
      return await task();
    } finally {
      this.active--;
      this.wakeUp();
    }
  }

  rateLimited(): void {
    this.limit = Math.max(1, Math.floor(this.limit / 2));
    this.streak = 0;
  }

  succeeded(): void {
    if (this.limit >= this.max) return;
    this.streak++;
    if (this.streak >= RECOVERY_STREAK) {
      this.limit++;
      this.streak = 0;
      this.wakeUp();
    }
  }

  private wakeUp(): void {
    for (let free = this.limit - this.active; free > 0 && this.waiting.length > 0; free--)
      this.waiting.shift()?.();
  }
}
