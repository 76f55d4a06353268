/**
 * A number of requests a read may send, fixed before it starts. A read that pages or widens takes one
 * from it before each request and stops, saying so, when none is left: the cost a command states is then
 * an upper bound the code cannot exceed, whatever the gateway answers (a gappy indexer, a page of one).
 */
export class RequestBudget {
  private spentCount = 0;
  private refusedCount = 0;

  constructor(readonly cap: number) {
    if (!Number.isSafeInteger(cap) || cap < 0) throw new RangeError(`request cap ${cap} is not a count`);
  }

  /** Takes one request; false (and nothing sent) when the cap is reached. */
  take(): boolean {
    if (this.spentCount >= this.cap) {
      this.refusedCount++;
      return false;
    }
    this.spentCount++;
    return true;
  }

  get spent(): number {
    return this.spentCount;
  }

  get left(): number {
    return this.cap - this.spentCount;
  }

  /** Whether a request was wanted after the cap was reached (the read stopped short). */
  get stoppedShort(): boolean {
    return this.refusedCount > 0;
  }
}
